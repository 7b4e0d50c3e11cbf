package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.Computation;
import dev.cohort.api.PartyId;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.net.Channel;
import dev.cohort.suite.SuiteFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * Test harness for either transport: n parties as threads on loopback. The first party (in party
 * order) to fail is rethrown with the others suppressed.
 */
public final class Parties {

  private static final long WAIT_SECONDS = 60;

  private Parties() {}

  /**
   * Reserves a loopback port without listening on it: the kernel refuses connections to it (so a
   * dialer sees a party that has not started yet), nobody else can take it while the socket is
   * open, and with SO_REUSEADDR a listener may still bind it. No port is ever probed.
   */
  public static Socket reservePort() throws IOException {
    Socket socket = new Socket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress("127.0.0.1", 0));
    return socket;
  }

  public static InetSocketAddress addressOf(Socket reserved) {
    return new InetSocketAddress("127.0.0.1", reserved.getLocalPort());
  }

  /** Live threads whose name starts with {@code prefix}. */
  public static long threads(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
        .count();
  }

  /**
   * Threads end shortly after their pools terminate; waits up to 5 s until at most {@code expected}
   * threads named {@code prefix} are alive, and returns how many are.
   */
  public static long awaitThreads(String prefix, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    long live = threads(prefix);
    while (live > expected && System.nanoTime() - deadline < 0) {
      Thread.sleep(20);
      live = threads(prefix);
    }
    return live;
  }

  /** How a transport binds one party: {@code NettyNetwork::bind}, {@code SocketNetwork::bind}. */
  @FunctionalInterface
  public interface Binder<N extends TransportNetwork> {
    N bind(int self, int parties, InetSocketAddress listen, TransportOptions options);
  }

  /** Binds every party on 127.0.0.1:0 with {@code binder}; the caller connects them. */
  public static <N extends TransportNetwork> List<N> bind(
      int parties, IntFunction<TransportOptions> options, Binder<N> binder) {
    List<N> networks = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      networks.add(
          binder.bind(p, parties, new InetSocketAddress("127.0.0.1", 0), options.apply(p)));
    }
    return networks;
  }

  /** Where each party listens, in party order. */
  public static List<InetSocketAddress> addresses(List<? extends TransportNetwork> networks) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (TransportNetwork network : networks) {
      addresses.add(network.localAddress());
    }
    return addresses;
  }

  /**
   * Binds every party with {@code binder} and connects them all, in parallel, with {@code
   * connector}; returns the channels in party order.
   */
  public static <N extends TransportNetwork, C> List<C> connect(
      int parties,
      IntFunction<TransportOptions> options,
      Binder<N> binder,
      BiFunction<N, List<InetSocketAddress>, C> connector) {
    List<N> networks = bind(parties, options, binder);
    List<InetSocketAddress> addresses = addresses(networks);
    return each(parties, p -> connector.apply(networks.get(p), addresses));
  }

  /**
   * Party {@code p} runs {@code computation} through an engine over the transport {@code binder}
   * binds.
   */
  public static <T> List<Result<T>> run(
      int parties,
      IntFunction<TransportOptions> options,
      Binder<?> binder,
      SuiteFactory suite,
      EngineConfig config,
      Computation<T> computation) {
    List<? extends TransportNetwork> networks = bind(parties, options, binder);
    List<InetSocketAddress> addresses = addresses(networks);
    return each(
        parties,
        p -> {
          try (Channel channel = networks.get(p).connect(addresses)) {
            return new Engine(suite, channel, config).run(computation);
          }
        });
  }

  /** Runs {@code task} for every party on its own thread and waits for all of them. */
  public static <T> List<T> each(int parties, PartyTask<T> task) {
    ExecutorService pool = Executors.newFixedThreadPool(parties);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int p = 0; p < parties; p++) {
        int party = p;
        Callable<T> call = () -> task.run(party);
        futures.add(pool.submit(call));
      }
      List<T> results = new ArrayList<>();
      PartyFailedException failure = null;
      for (int p = 0; p < parties; p++) {
        try {
          results.add(futures.get(p).get(WAIT_SECONDS, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
          Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
          PartyFailedException failed = new PartyFailedException(PartyId.of(p), cause);
          if (failure == null) {
            failure = failed;
          } else {
            failure.addSuppressed(failed);
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the parties", e);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Runs {@code task} for every party, expecting at least one to fail, and returns every failure in
   * party order (the first one and those suppressed into it).
   */
  public static List<PartyFailedException> failures(int parties, PartyTask<?> task) {
    PartyFailedException failure =
        assertThrows(PartyFailedException.class, () -> each(parties, task));
    List<PartyFailedException> all = new ArrayList<>(List.of(failure));
    for (Throwable suppressed : failure.getSuppressed()) {
      all.add((PartyFailedException) suppressed);
    }
    return all;
  }

  /** What one party does. */
  @FunctionalInterface
  public interface PartyTask<T> {
    T run(int party) throws Exception;
  }
}
