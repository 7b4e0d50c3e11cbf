package dev.cohort.bench;

import dev.cohort.net.Channel;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.socket.SocketNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
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
 * JVM.
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

  /** The three parties' transports and helper threads, alive for the whole trial. */
  @State(Scope.Benchmark)
  public static class Mesh {

    @Param({"tls", "plaintext", "socket-tls", "socket-plaintext"})
    public String security;

    Path keys;
    final List<Channel> transports = new ArrayList<>();
    final ExecutorService[] helpers = new ExecutorService[PARTIES];
    long[][] one;
    long[][] million;
    int[] oneLengths;
    int[] millionLengths;

    @Setup(Level.Trial)
    public void connect() throws Exception {
      keys = Files.createTempDirectory("cohort-bench-keys");
      Certificates.generate(keys, PARTIES);
      boolean sockets = security.startsWith("socket-");
      transports.addAll(
          List.of(
              StandingParties.connectAll(
                  PARTIES,
                  p ->
                      sockets
                          ? new StandingParties.Sockets(p, PARTIES, options(p))
                          : new StandingParties.Netty(p, PARTIES, options(p)))));
      for (int p = 0; p < PARTIES; p++) {
        helpers[p] = Executors.newSingleThreadExecutor();
      }
      one = new long[PARTIES][1];
      oneLengths = new int[PARTIES];
      million = new long[PARTIES][MILLION];
      millionLengths = new int[PARTIES];
      for (int p = 0; p < PARTIES; p++) {
        oneLengths[p] = 1;
        millionLengths[p] = MILLION;
      }
    }

    private TransportOptions options(int party) {
      return security.endsWith("tls")
          ? TransportOptions.tls(TlsIdentity.load(keys, party))
          : TransportOptions.plaintextInsecure();
    }

    /** One round of the whole mesh: parties 1 and 2 on their threads, party 0 on this one. */
    long[][] round(long[][] outgoing, int[] lengths)
        throws InterruptedException, ExecutionException, TimeoutException {
      List<Future<long[][]>> others = new ArrayList<>();
      for (int p = 1; p < PARTIES; p++) {
        Channel transport = transports.get(p);
        others.add(helpers[p].submit(() -> transport.exchange(outgoing, lengths)));
      }
      long[][] mine = transports.get(0).exchange(outgoing, lengths);
      for (Future<long[][]> f : others) {
        f.get(60, TimeUnit.SECONDS);
      }
      return mine;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
      for (Channel transport : transports) {
        transport.close();
      }
      for (ExecutorService helper : helpers) {
        helper.shutdownNow();
      }
      try (Stream<Path> files = Files.walk(keys)) {
        files.sorted(Comparator.reverseOrder()).forEach(NetworkBenchmark::delete);
      }
    }
  }

  private static void delete(Path file) {
    try {
      Files.delete(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public long[][] roundTrip(Mesh mesh) throws Exception {
    return mesh.round(mesh.one, mesh.oneLengths);
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public long[][] exchangeMillion(Mesh mesh) throws Exception {
    return mesh.round(mesh.million, mesh.millionLengths);
  }
}
