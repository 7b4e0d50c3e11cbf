package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.SessionsResult;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.socket.SocketNetwork;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * n parties whose engines and threads live across benchmark invocations: the calling thread runs
 * party 0, one single-thread executor per other party runs the rest. An invocation then measures
 * the protocol, not thread start-up or one-off set-up.
 *
 * <p>Three transports ({@link #open}): {@value #MEMORY}, the in-memory network; {@value #TLS}, one
 * {@link NettyNetwork} per party on loopback with mutual TLS; and {@value #SOCKET_TLS}, one {@link
 * SocketNetwork} per party (blocking JDK sockets, the party thread does its own I/O) with the same
 * TLS. Certificates are generated into a temporary directory that {@link #close} deletes. The
 * benchmarks list memory and tls in their {@code transport} parameter; JMH takes other values too:
 * {@code -p transport=tls,socket-tls}.
 */
final class StandingParties implements AutoCloseable {

  static final String MEMORY = "memory";
  static final String TLS = "tls";
  static final String SOCKET_TLS = "socket-tls";

  private final Channel[] channels;
  private final Engine[] engines;
  private final ExecutorService[] helpers; // index p - 1 runs party p
  private final Path keys; // null for the in-memory transport

  /** In-memory parties. INSECURE: engines use a fixed PRG seed, for repeatable benchmarks only. */
  StandingParties(int parties, SuiteFactory suite, long insecureSeed) {
    this(memoryChannels(parties), null, suite, insecureSeed);
  }

  private StandingParties(Channel[] channels, Path keys, SuiteFactory suite, long insecureSeed) {
    int parties = channels.length;
    this.channels = channels;
    this.keys = keys;
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(insecureSeed);
    engines = new Engine[parties];
    for (int p = 0; p < parties; p++) {
      engines[p] = new Engine(suite, channels[p], config);
    }
    helpers = new ExecutorService[parties - 1];
    for (int p = 1; p < parties; p++) {
      helpers[p - 1] = daemon("bench-party-" + p);
    }
  }

  /**
   * Parties over {@code transport} ({@value #MEMORY}, {@value #TLS} or {@value #SOCKET_TLS}).
   * INSECURE: engines use a fixed PRG seed, for repeatable benchmarks only.
   */
  static StandingParties open(
      String transport, int parties, SuiteFactory suite, long insecureSeed) {
    if (transport.equals(MEMORY)) {
      return new StandingParties(parties, suite, insecureSeed);
    }
    if (!transport.equals(TLS) && !transport.equals(SOCKET_TLS)) {
      throw new IllegalArgumentException(
          "transport " + transport + ": want " + MEMORY + ", " + TLS + " or " + SOCKET_TLS);
    }
    Path keys;
    try {
      keys = Files.createTempDirectory("cohort-bench-keys");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Certificates.generate(keys, parties);
    IntFunction<TransportOptions> options = p -> TransportOptions.tls(TlsIdentity.load(keys, p));
    Channel[] channels =
        transport.equals(TLS)
            ? connectAll(parties, p -> new Netty(p, parties, options.apply(p)))
            : connectAll(parties, p -> new Sockets(p, parties, options.apply(p)));
    return new StandingParties(channels, keys, suite, insecureSeed);
  }

  /** A bound party of either real transport, ready to connect. */
  interface Endpoint {
    InetSocketAddress localAddress();

    Channel connect(List<InetSocketAddress> addresses);
  }

  record Netty(NettyNetwork network) implements Endpoint {
    Netty(int self, int parties, TransportOptions options) {
      this(NettyNetwork.bind(self, parties, new InetSocketAddress("127.0.0.1", 0), options));
    }

    @Override
    public InetSocketAddress localAddress() {
      return network.localAddress();
    }

    @Override
    public Channel connect(List<InetSocketAddress> addresses) {
      return network.connect(addresses);
    }
  }

  record Sockets(SocketNetwork network) implements Endpoint {
    Sockets(int self, int parties, TransportOptions options) {
      this(SocketNetwork.bind(self, parties, new InetSocketAddress("127.0.0.1", 0), options));
    }

    @Override
    public InetSocketAddress localAddress() {
      return network.localAddress();
    }

    @Override
    public Channel connect(List<InetSocketAddress> addresses) {
      return network.connect(addresses);
    }
  }

  private static Channel[] memoryChannels(int parties) {
    InMemoryNetwork network = new InMemoryNetwork(parties, Duration.ofSeconds(60));
    Channel[] channels = new Channel[parties];
    for (int p = 0; p < parties; p++) {
      channels[p] = network.channel(p);
    }
    return channels;
  }

  /** Binds every party on loopback, then connects them all in parallel. */
  static Channel[] connectAll(int parties, IntFunction<Endpoint> bind) {
    List<Endpoint> endpoints = new ArrayList<>();
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      Endpoint endpoint = bind.apply(p);
      endpoints.add(endpoint);
      addresses.add(endpoint.localAddress());
    }
    ExecutorService connecting = Executors.newFixedThreadPool(parties);
    try {
      List<Future<Channel>> futures = new ArrayList<>();
      for (Endpoint endpoint : endpoints) {
        futures.add(connecting.submit(() -> endpoint.connect(addresses)));
      }
      Channel[] channels = new Channel[parties];
      for (int p = 0; p < parties; p++) {
        channels[p] = await(futures.get(p), "party " + p + " connecting");
      }
      return channels;
    } finally {
      connecting.shutdownNow();
    }
  }

  private static ExecutorService daemon(String name) {
    return Executors.newSingleThreadExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }

  private static <T> T await(Future<T> future, String what) {
    try {
      return future.get(120, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(what + " failed", e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(what + " did not finish within 120 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting: " + what, e);
    }
  }

  int parties() {
    return engines.length;
  }

  /** Runs {@code computation} on every party; returns party 0's result when all have finished. */
  <T> Result<T> run(Computation<T> computation) {
    return onAll(engine -> () -> engine.run(computation));
  }

  /**
   * Runs {@code computation} on every party; returns each party's {total bytes sent, total frames
   * sent} (index = party).
   */
  <T> long[][] runAll(Computation<T> computation) {
    List<Future<Result<T>>> others = new ArrayList<>(helpers.length);
    for (int p = 1; p < engines.length; p++) {
      Engine engine = engines[p];
      others.add(helpers[p - 1].submit(() -> engine.run(computation)));
    }
    long[][] traffic = new long[engines.length][];
    Result<T> mine = engines[0].run(computation);
    traffic[0] = new long[] {mine.metrics().totalBytesSent(), mine.metrics().totalFramesSent()};
    for (int p = 1; p < engines.length; p++) {
      Result<T> r = await(others.get(p - 1), "party " + p);
      traffic[p] = new long[] {r.metrics().totalBytesSent(), r.metrics().totalFramesSent()};
    }
    return traffic;
  }

  /**
   * Runs {@code sessions.get(p)} on party p at {@code parallelism}; returns party 0's result when
   * all have finished.
   */
  <T> SessionsResult<T> runSessions(List<List<Computation<T>>> sessions, int parallelism) {
    List<Future<SessionsResult<T>>> others = new ArrayList<>(helpers.length);
    for (int p = 1; p < engines.length; p++) {
      Engine engine = engines[p];
      List<Computation<T>> mine = sessions.get(p);
      others.add(helpers[p - 1].submit(() -> engine.runSessions(mine, parallelism)));
    }
    SessionsResult<T> server = engines[0].runSessions(sessions.get(0), parallelism);
    for (Future<SessionsResult<T>> other : others) {
      await(other, "a helper party");
    }
    return server;
  }

  private <R> R onAll(java.util.function.Function<Engine, Callable<R>> task) {
    List<Future<R>> others = new ArrayList<>(helpers.length);
    for (int p = 1; p < engines.length; p++) {
      others.add(helpers[p - 1].submit(task.apply(engines[p])));
    }
    R mine;
    try {
      mine = task.apply(engines[0]).call();
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
    for (Future<R> other : others) {
      await(other, "a helper party");
    }
    return mine;
  }

  @Override
  public void close() {
    for (ExecutorService helper : helpers) {
      helper.shutdownNow();
    }
    for (Channel channel : channels) {
      channel.close();
    }
    if (keys != null) {
      try (Stream<Path> files = Files.walk(keys)) {
        files.sorted(Comparator.reverseOrder()).forEach(StandingParties::delete);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
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
}
