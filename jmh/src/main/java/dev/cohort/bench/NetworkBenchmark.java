package dev.cohort.bench;

import dev.cohort.harness.LocalParties;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.socket.SocketNetwork;
import java.time.Duration;
import java.util.Arrays;
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
 * A transport alone, without an engine: 3 parties on loopback, each with its own {@link
 * NettyNetwork} (own event loop, own connections) or, for {@code security} = socket-tls or
 * socket-plaintext, its own {@link SocketNetwork} (blocking sockets, no event loop), all in this
 * JVM as standing parties of the harness ({@link Transports}).
 *
 * <p>The benchmark thread is party 0; parties 1 and 2 are long-lived single-thread executors that
 * run the same exchange, so an invocation is one round of the full mesh.
 *
 * <ul>
 *   <li>{@link #roundTrip}: one 64-bit word to each peer and one from each: the latency of a round
 *       (average time per round).
 *   <li>{@link #exchangeMillion}: 10^6 words (8 MB) to each peer and from each: throughput of a
 *       large round. Each party sends 16 MB per invocation, so MB/s per party = 16 x ops/s.
 * </ul>
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar NetworkBenchmark -p security=tls}.
 */
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx4g"})
public class NetworkBenchmark {

  static final int PARTIES = 3;
  static final int MILLION = 1_000_000;

  /** The three parties' channels and helper threads, alive for the whole trial. */
  @State(Scope.Benchmark)
  public static class Mesh {

    @Param({"tls", "plaintext", "socket-tls", "socket-plaintext"})
    public String security;

    LocalParties parties;
    LocalParties.ChannelTask<long[][]> one;
    LocalParties.ChannelTask<long[][]> million;

    @Setup(Level.Trial)
    public void connect() {
      parties =
          LocalParties.builder(PARTIES)
              .mesh(Transports.mesh(security))
              .deadline(Duration.ofSeconds(60))
              .standing()
              .open();
      one = round(1);
      million = round(MILLION);
    }

    /** One round of the whole mesh with {@code words} words to and from each peer. */
    private static LocalParties.ChannelTask<long[][]> round(int words) {
      long[][] outgoing = new long[PARTIES][words];
      int[] lengths = new int[PARTIES];
      Arrays.fill(lengths, words);
      return (party, channel) -> channel.exchange(outgoing, lengths);
    }

    /** One round: parties 1 and 2 on their threads, party 0 on this one. */
    long[][] round(LocalParties.ChannelTask<long[][]> task) {
      return parties.onChannels(task).get(0);
    }

    @TearDown(Level.Trial)
    public void close() {
      parties.close();
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public long[][] roundTrip(Mesh mesh) {
    return mesh.round(mesh.one);
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public long[][] exchangeMillion(Mesh mesh) {
    return mesh.round(mesh.million);
  }
}
