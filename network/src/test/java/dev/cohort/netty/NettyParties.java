package dev.cohort.netty;

import dev.cohort.api.Computation;
import dev.cohort.api.PartyId;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.TransportOptions;
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
import java.util.function.IntFunction;

/**
 * Test harness: n parties as threads, each with its own {@link NettyNetwork} on loopback (port 0),
 * connected as a real mesh. The first party to fail is rethrown with the others suppressed.
 */
public final class NettyParties {

  private static final long WAIT_SECONDS = 60;

  private NettyParties() {}

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

  /** Live threads of the parties' event loops, by name. */
  static long eventLoopThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("cohort-netty-"))
        .count();
  }

  /** Binds every party on 127.0.0.1:0; the caller connects them. */
  static List<NettyNetwork> bind(int parties, IntFunction<TransportOptions> options) {
    List<NettyNetwork> networks = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      networks.add(
          NettyNetwork.bind(p, parties, new InetSocketAddress("127.0.0.1", 0), options.apply(p)));
    }
    return networks;
  }

  static List<InetSocketAddress> addresses(List<NettyNetwork> networks) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (NettyNetwork network : networks) {
      addresses.add(network.localAddress());
    }
    return addresses;
  }

  /** Binds and connects every party, in parallel; returns the transports in party order. */
  static List<NettyTransport> connect(int parties, IntFunction<TransportOptions> options) {
    List<NettyNetwork> networks = bind(parties, options);
    List<InetSocketAddress> addresses = addresses(networks);
    return each(parties, p -> networks.get(p).connect(addresses));
  }

  /** Party {@code p} runs {@code computation} through an engine over its Netty transport. */
  static <T> List<Result<T>> run(
      int parties,
      IntFunction<TransportOptions> options,
      SuiteFactory suite,
      EngineConfig config,
      Computation<T> computation) {
    List<NettyNetwork> networks = bind(parties, options);
    List<InetSocketAddress> addresses = addresses(networks);
    return each(
        parties,
        p -> {
          try (NettyTransport transport = networks.get(p).connect(addresses)) {
            return new Engine(suite, transport, config).run(computation);
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

  @FunctionalInterface
  public interface PartyTask<T> {
    T run(int party) throws Exception;
  }
}
