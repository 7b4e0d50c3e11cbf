package dev.cohort.bench;

import dev.cohort.bgw.BgwSuite;
import dev.cohort.clients.Client;
import dev.cohort.clients.InMemoryClients;
import dev.cohort.clients.InputServer;
import dev.cohort.clients.SessionOutcome;
import dev.cohort.clients.Shape;
import dev.cohort.clients.Sums;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.spdz.SpdzSuite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 * Validated submissions per second of 3 BGW input servers: one invocation is one session of {@code
 * clients} submissions of one {@code bits}-bit value each, from the session's opening to every
 * server's opened sum: parsing, the field-element check, the servers' agreement on the submissions,
 * the degree-t and range checks, and the sum. The clients are connected in memory (no TLS, which
 * {@code cohort bench clients} measures) and deal their shares on {@code feeders} threads, on the
 * same cores as the servers. Submissions per second = clients / score.
 *
 * <p>With {@code -p suite=spdz} the servers run SPDZ (the seeded in-process dealer, INSECURE, which
 * deals the clients' triples inside the session): each client first waits for its input masks, one
 * grant round of the servers, so feed with more threads ({@code -p feeders=32}) to measure the
 * servers rather than the feeders' waits.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar InputServerBenchmark}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 15)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx2g"})
public class InputServerBenchmark {

  static final Duration WAIT = Duration.ofSeconds(120);

  /** Servers, engines and connected clients for the whole trial. */
  @State(Scope.Benchmark)
  public static class Deployment {
    @Param({"10000"})
    int clients;

    @Param({"32"})
    int bits;

    @Param({"2"})
    int feeders;

    @Param({"bgw"})
    String suite;

    LocalParties parties;
    InputServer[] servers;
    Client[] devices;
    long[][] values;
    long sum;
    ExecutorService pool;

    @Setup(Level.Trial)
    public void setUp() {
      parties = LocalParties.builder(3).deadline(Duration.ofDays(1)).standing().open();
      servers = new InputServer[3];
      Shape shape = Shape.of(bits);
      parties.onChannels(
          (p, channel) -> {
            boolean spdz = suite.equals("spdz");
            Engine engine =
                new Engine(
                    spdz
                        ? SpdzSuite.insecureFactory(Fields.MERSENNE_61, 5)
                        : BgwSuite.factory(Fields.MERSENNE_61),
                    channel,
                    EngineConfig.defaults());
            InputServer.Builder b =
                spdz
                    ? InputServer.spdz(engine, channel, shape)
                    : InputServer.bgw(engine, channel, shape);
            servers[p] = b.closeAfter(clients).deadline(WAIT).build();
            return null;
          });
      InMemoryClients memory = new InMemoryClients(servers);
      devices = new Client[clients];
      values = new long[clients][];
      SplittableRandom random = new SplittableRandom(5);
      long half = 1L << (bits - 1);
      for (int j = 0; j < clients; j++) {
        devices[j] = Client.over(memory.connect(j), WAIT);
        values[j] = new long[] {random.nextLong(-half, half)};
        sum += values[j][0];
      }
      pool = Executors.newFixedThreadPool(feeders);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      pool.shutdownNow();
      parties.close();
    }
  }

  @Benchmark
  public long session(Deployment d) throws Exception {
    CompletableFuture<List<SessionOutcome<long[]>>> session =
        CompletableFuture.supplyAsync(
            () -> d.parties.onChannels((p, channel) -> d.servers[p].runSession(new Sums())));
    List<CompletableFuture<Void>> fed = new ArrayList<>();
    int per = (d.clients + d.feeders - 1) / d.feeders;
    for (int f = 0; f < d.feeders; f++) {
      int from = f * per;
      int to = Math.min(d.clients, from + per);
      fed.add(
          CompletableFuture.runAsync(
              () -> {
                for (int j = from; j < to; j++) {
                  d.devices[j].send(d.values[j]);
                }
              },
              d.pool));
    }
    for (CompletableFuture<Void> f : fed) {
      f.get();
    }
    SessionOutcome<long[]> o = session.get().get(0);
    if (o.contributors() != d.clients || o.value()[0] != d.sum) {
      throw new IllegalStateException(
          "the session took " + o.contributors() + " with sum " + o.value()[0]);
    }
    return o.value()[0];
  }
}
