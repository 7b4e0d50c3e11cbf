package dev.cohort.bench;

import dev.cohort.field.Fields;
import dev.cohort.harness.Mesh;
import dev.cohort.harness.PartyThreads;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.offline.OfflinePhase;
import dev.cohort.offline.mascot.MascotPreprocessing;
import dev.cohort.offline.ot.InsecureIdealOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * MASCOT triples over 2^127 − 1: {@code parties} parties as threads in one JVM over the in-memory
 * transport, each with its own {@link MascotPreprocessing}, make {@value #BATCH} triples per
 * invocation (one protocol run: Gilboa multiplication, combining, COPE authentication, sacrifice,
 * MAC check). The score is triples per second.
 *
 * <p>{@code ots=kos} is the real offline phase ({@link OfflinePhase#start}: base OTs on P-256 and
 * the KOS extension); {@code ots=ideal} takes <b>INSECURE</b> ideal OTs ({@link InsecureIdealOts}:
 * shared keys, nothing sent), so that score is the protocol above the OTs alone. {@code transport}
 * is {@code memory} or {@code tls} (Netty over loopback, as the parties' mesh).
 *
 * <p>Bytes on the wire: the tear-down prints each party's bytes per triple to each peer, from its
 * channel's {@link TrafficStats} over every invocation of the trial (warm-up included, the set-up's
 * base OTs of COPE not; the KOS extension's base OTs at the first call are, amortized): frame bytes
 * with their headers, before TLS, over {@code tls}; 8 bytes per word over {@code memory}. Compare
 * with the cost model in {@link MascotPreprocessing}'s javadoc (18,304 bytes with the KOS
 * extension, 16,272 with ideal OTs, plus a per-call constant of a few KB over {@value #BATCH}
 * triples). {@link FrescoMascotBenchmark} runs FRESCO's MASCOT in the same JMH run.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar MascotBenchmark -p ots=kos -p transport=tls}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx6g"})
public class MascotBenchmark {

  static final int BATCH = 10_000;

  /** The parties' preprocessing instances and their threads, alive for the whole trial. */
  @State(Scope.Benchmark)
  public static class Parties {

    @Param({"2", "3"})
    public int parties;

    @Param({"kos", "ideal"})
    public String ots;

    @Param({"tls", "memory"})
    public String transport;

    PartyThreads threads;
    SpdzPreprocessing[] preprocessing;
    Channel[] channels;
    Mesh.Factory factory;
    Mesh mesh;
    TrafficStats[] start;
    long triples;

    @Setup(Level.Trial)
    public void setUp() {
      factory = Transports.mesh(transport);
      mesh = factory.bind(parties);
      threads = PartyThreads.standing(parties, Duration.ofSeconds(300));
      preprocessing = new SpdzPreprocessing[parties];
      channels = new Channel[parties];
      threads.run(
          p -> {
            channels[p] = mesh.connect(p);
            preprocessing[p] =
                ots.equals("kos")
                    ? OfflinePhase.start(Fields.MERSENNE_127, channels[p])
                    : new MascotPreprocessing(
                        Fields.MERSENNE_127,
                        channels[p],
                        new InsecureIdealOts(7, 1, p, parties),
                        new InsecureIdealOts(7, 2, p, parties),
                        Prg.secure());
            return null;
          });
      start = new TrafficStats[parties];
      for (int p = 0; p < parties; p++) {
        start[p] = channels[p].stats().copy();
      }
      triples = 0;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      System.out.println();
      for (int p = 0; p < parties; p++) {
        long[] sent = channels[p].stats().since(start[p]).bytesSent;
        long[] per = new long[parties];
        for (int q = 0; q < parties; q++) {
          per[q] = triples == 0 ? 0 : Math.round((double) sent[q] / triples);
        }
        System.out.println(
            "Cohort MASCOT parties="
                + parties
                + " ots="
                + ots
                + " transport="
                + transport
                + ": P"
                + p
                + " bytes per triple to each peer: "
                + Arrays.toString(per));
      }
      for (Channel c : channels) {
        c.close();
      }
      threads.close();
      mesh.close();
      factory.close();
    }
  }

  /** {@value #BATCH} triples at every party. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public List<Triples> triples(Parties s) {
    List<Triples> r = s.threads.run(p -> s.preprocessing[p].triples(BATCH));
    s.triples += BATCH;
    return r;
  }
}
