package dev.cohort.bench;

import dev.cohort.harness.PartyThreads;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.offline.ot.KosExtension;
import dev.cohort.offline.ot.OtBatch;
import dev.cohort.random.Prg;
import java.time.Duration;
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
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The KOS15 OT extension ({@link KosExtension}) between 2 parties as threads over the in-memory
 * network: one invocation is one {@code transfer} of 2^20 random OTs per ordered pair (each party
 * sends 2^20 and receives 2^20), with the correlation check and the hash. The base OTs run once in
 * the set-up. The score is random OTs per second per ordered pair.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar OtExtensionBenchmark -f 1 -wi 3 -i 5}.
 */
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx4g"})
public class OtExtensionBenchmark {

  static final int PARTIES = 2;
  static final int COUNT = 1 << 20;

  /** Both parties' extensions, past their base OTs, and their choice bits. */
  @State(Scope.Benchmark)
  public static class Pair {
    PartyThreads threads;
    Channel[] channels = new Channel[PARTIES];
    KosExtension[] extensions = new KosExtension[PARTIES];
    long[][][] choices = new long[PARTIES][PARTIES][];

    @Setup(Level.Trial)
    public void setUp() {
      InMemoryNetwork network = new InMemoryNetwork(PARTIES, Duration.ofSeconds(60));
      Prg prg = Prg.seeded(1);
      for (int p = 0; p < PARTIES; p++) {
        channels[p] = network.channel(p);
        extensions[p] = new KosExtension(channels[p], Prg.seeded(10 + p));
        choices[p][1 - p] = new long[COUNT / 64];
        prg.fill(choices[p][1 - p], 0, COUNT / 64);
      }
      threads = PartyThreads.standing(PARTIES, Duration.ofMinutes(2));
      threads.run(p -> extensions[p].transfer(1, choices[p])); // the base OTs
    }

    List<OtBatch> transfer() {
      return threads.run(p -> extensions[p].transfer(COUNT, choices[p]));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      threads.close();
      for (Channel channel : channels) {
        channel.close();
      }
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(COUNT)
  public List<OtBatch> randomOts(Pair pair) {
    return pair.transfer();
  }
}
