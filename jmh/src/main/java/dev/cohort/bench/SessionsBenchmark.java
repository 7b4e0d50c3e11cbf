package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Distance-average sessions: in each session the n − 1 devices P1..P(n−1) input a distance, the
 * server P0 inputs the running sum, and the new sum is opened to the server. One invocation runs
 * {@value #SESSIONS} sessions with {@link Engine#runSessions} at the given parallelism (1: one at a
 * time; 1000: all in one batch), so the score is the time per 1000 sessions.
 *
 * <p>BGW or SPDZ ({@code suite}; SPDZ with its INSECURE seeded in-process dealer) at n = 3 over
 * 2^61 − 1, the parties as threads in one JVM over the in-memory transport or the Netty transport
 * on loopback with TLS ({@code transport}), engines and threads alive for the whole trial (the key
 * set-up is not measured). The same workload on FRESCO is FrescoBaselineBenchmark.sessions.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar SessionsBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx1g"})
public class SessionsBenchmark {

  static final int PARTIES = 3;
  static final int SESSIONS = 1000;
  static final int BITS = 32;
  static final long SEED = 20240601L;

  /** The parties' engines, alive for the whole trial, and the sessions to run. */
  @State(Scope.Benchmark)
  public static class Parties {

    @Param({"1", "20", "1000"})
    public int parallelism;

    @Param({"bgw", "spdz"})
    public String suite;

    @Param({"memory", "tls"})
    public String transport;

    /**
     * Groups of sessions per party ({@link EngineConfig#withGroups}), each an engine on its own
     * thread: 1 is one engine. With SPDZ the groups draw disjoint slices of each party's one
     * in-process dealer, which deals a chunk at a time under one lock.
     */
    @Param({"1"})
    public int groups;

    private LocalParties parties;
    private List<List<Computation<Long>>> sessions; // per party: its inputs

    @Setup(Level.Trial)
    public void setUp() {
      // INSECURE: fixed seeds (engine PRG, SPDZ's in-process dealer) make runs repeatable; for
      // benchmarks only, never deployments.
      SuiteFactory factory =
          switch (suite) {
            case "bgw" -> BgwSuite.factory(Fields.MERSENNE_61);
            case "spdz" -> SpdzSuite.factory(SpdzConfig.insecureDealer(Fields.MERSENNE_61, SEED));
            default -> throw new IllegalArgumentException("suite " + suite + ": want bgw or spdz");
          };
      EngineConfig config = EngineConfig.defaults().withInsecureSeed(SEED).withGroups(groups);
      parties = Transports.standing(transport, PARTIES, factory, config);
      sessions = new ArrayList<>();
      for (int p = 0; p < PARTIES; p++) {
        sessions.add(distanceSessions(p));
      }
      check(run());
    }

    private final PartyCpu deviceCpu = new PartyCpu("cohort-P1");

    /** Runs the sessions on every party; returns the server's result. */
    public SessionsResult<Long> run() {
      deviceCpu.counted();
      return parties.runSessionsEach(sessions::get, parallelism).get(0);
    }

    @Setup(Level.Iteration)
    public void startIteration() {
      deviceCpu.start();
    }

    /**
     * Prints a device's (P1's) compute threads' CPU per invocation (its party thread and its
     * groups' threads; not the network's): the work a party with cores of its own would spread over
     * them, and the busiest thread's share, which bounds its time there.
     */
    @TearDown(Level.Iteration)
    public void endIteration() {
      deviceCpu.report(System.out);
    }

    private void check(SessionsResult<Long> r) {
      for (int i = 0; i < SESSIONS; i++) {
        long want = runningSum(i) + distanceSum(i);
        if (r.values().get(i) != want) {
          throw new IllegalStateException(
              "session " + i + " opened " + r.values().get(i) + ", want " + want);
        }
      }
      long rounds = r.metrics().rounds();
      if (!suite.equals("bgw")) {
        return; // SPDZ adds its MAC-check rounds; the round count is asserted by its tests
      }
      int k = Math.min(groups, parallelism); // groups run side by side: the slowest one's rounds
      long want = 0;
      for (int g = 0; g < k; g++) {
        int sessions = SESSIONS / k + (g < SESSIONS % k ? 1 : 0);
        int inFlight = parallelism / k + (g < parallelism % k ? 1 : 0);
        want = Math.max(want, 2L * ((sessions + inFlight - 1) / inFlight));
      }
      if (rounds != want) {
        throw new IllegalStateException(rounds + " rounds, want " + want);
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      parties.close();
    }
  }

  static long runningSum(int session) {
    return 1000L * session;
  }

  static long distance(int session, int device) {
    return (session * 31L + device * 7L) % 1000;
  }

  static long distanceSum(int session) {
    long s = 0;
    for (int d = 1; d < PARTIES; d++) {
      s += distance(session, d);
    }
    return s;
  }

  /**
   * Party {@code self}'s sessions: the same circuit everywhere, each party's own inputs (a party
   * passes 0 for the inputs it does not own; they are read only at their owner).
   */
  static List<Computation<Long>> distanceSessions(int self) {
    List<Computation<Long>> list = new ArrayList<>(SESSIONS);
    for (int i = 0; i < SESSIONS; i++) {
      long sum = self == 0 ? runningSum(i) : 0;
      long mine = self == 0 ? 0 : distance(i, self);
      list.add(
          b -> {
            Secret total = b.input(0, sum, BITS);
            for (int d = 1; d < PARTIES; d++) {
              total = b.add(total, b.input(d, d == self ? mine : 0, BITS));
            }
            Deferred<Long> opened = b.openTo(0, total);
            return () -> self == 0 ? opened.get() : null;
          });
    }
    return list;
  }

  /** {@value #SESSIONS} distance-average sessions at the given parallelism. */
  @Benchmark
  public SessionsResult<Long> distanceAverage(Parties parties) {
    return parties.run();
  }

  /**
   * {@link #distanceAverage} with a 64 MiB heap: the check that the batched 1000-session
   * run fits in {@code -Xmx64m}. Run with {@code -p parallelism=1000}.
   */
  @Benchmark
  @Fork(
      value = 1,
      jvmArgs = {"-Xmx64m"})
  public SessionsResult<Long> distanceAverageSmallHeap(Parties parties) {
    return parties.run();
  }
}
