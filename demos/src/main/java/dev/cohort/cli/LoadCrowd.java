package dev.cohort.cli;

import dev.cohort.api.NetworkException;
import dev.cohort.clientlink.ClientLink;
import dev.cohort.clientlink.ClientLinkOptions;
import dev.cohort.clients.Client;
import dev.cohort.clients.TlsClients;
import dev.cohort.transport.Failures;
import dev.cohort.transport.NettyIo;
import dev.cohort.transport.tls.TlsIdentity;
import io.netty.channel.EventLoopGroup;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

/**
 * Many input clients of a real deployment in one process, kept connected: each with its own
 * certificate and TLS connections to every server, all on one shared event-loop group (thousands of
 * clients must not mean thousands of thread pools), and a small pool of threads that makes them
 * send. What {@code cohort bench load} drives. Invariant: a client is used by one task at a time
 * (each call below returns only once every client's task ended).
 */
final class LoadCrowd implements AutoCloseable {

  /** Attempts to connect one client (but the first) before the crowd gives up. */
  static final int ATTEMPTS = 3;

  private static final long RETRY_PAUSE_MS = 1000;

  /** How a crowd connects: which clients, where to, how many handshakes at once. */
  record Settings(
      List<InetSocketAddress> servers,
      Path keys,
      int firstId,
      int clients,
      int connecting,
      int eventLoopThreads,
      Duration timeout) {}

  private final int firstId;
  private final Client[] clients;
  private final EventLoopGroup group;
  private final ExecutorService pool;
  private int retried;

  private LoadCrowd(int firstId, Client[] clients, EventLoopGroup group, ExecutorService pool) {
    this.firstId = firstId;
    this.clients = clients;
    this.group = group;
    this.pool = pool;
  }

  /**
   * Connects clients {@code firstId .. firstId + clients - 1}, at most {@code connecting} of them
   * handshaking at a time, and calls {@code progress} with the number connected so far as they
   * come. The first client tries again until the timeout while a server is not up yet (the crowd
   * may start with its servers); any other tries {@value #ATTEMPTS} times in all (a server swamped
   * by handshakes lets some time out). Throws the first client's failure (a {@link
   * NetworkException} naming the client and the server) after closing every connection made.
   */
  static LoadCrowd connect(Settings s, IntConsumer progress) throws InterruptedException {
    EventLoopGroup group =
        NettyIo.newGroup(s.eventLoopThreads(), daemons("cohort-load-client-link"));
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.min(s.clients(), 4 * s.eventLoopThreads() + 4), daemons("cohort-load-client"));
    Client[] clients = new Client[s.clients()];
    LoadCrowd crowd = new LoadCrowd(s.firstId(), clients, group, pool);
    Connecting connecting = new Connecting(s, group, clients, progress);
    try {
      connecting.first();
      connecting.rest();
    } catch (RuntimeException | InterruptedException e) {
      connecting.failed(e);
    }
    Throwable first = connecting.failure.get();
    if (first != null) {
      crowd.close();
      throw first instanceof RuntimeException r
          ? r
          : new NetworkException(Failures.describe(first), first);
    }
    crowd.retried = connecting.retried.get();
    return crowd;
  }

  /** Connections that failed and were tried again while the crowd connected. */
  int retried() {
    return retried;
  }

  /** The clients' connecting: a semaphore of handshakes under way, and the first failure. */
  private static final class Connecting {
    private final Settings s;
    private final EventLoopGroup group;
    private final Client[] clients;
    private final IntConsumer progress;
    private final ClientLinkOptions options = ClientLinkOptions.defaults();
    private final Semaphore handshakes;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicInteger connected = new AtomicInteger();
    private final AtomicInteger retried = new AtomicInteger();

    Connecting(Settings s, EventLoopGroup group, Client[] clients, IntConsumer progress) {
      this.s = s;
      this.group = group;
      this.clients = clients;
      this.progress = progress;
      this.handshakes = new Semaphore(s.connecting());
    }

    /** The first client, again and again (every 0.2 s, up to 2 s apart) until the timeout. */
    void first() throws InterruptedException {
      TlsIdentity identity = identity(0);
      long until = System.nanoTime() + s.timeout().toNanos();
      long pause = 200;
      while (true) {
        try {
          connected(0, ClientLink.connectAsync(s.servers(), identity, options, group).join());
          return;
        } catch (CompletionException e) {
          if (!(e.getCause() instanceof NetworkException n)
              || System.nanoTime() + pause * 1_000_000 > until) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
          }
          Thread.sleep(pause);
          pause = Math.min(2 * pause, 2000);
        }
      }
    }

    /** The others, {@code connecting} at a time; returns once every attempt has ended. */
    void rest() throws InterruptedException {
      try {
        for (int k = 1; k < clients.length && failure.get() == null; k++) {
          handshakes.acquire();
          launch(k, identity(k), 1);
        }
      } finally {
        handshakes.acquire(s.connecting());
      }
    }

    /** Connects client {@code k}; its permit is released when it connected or gave up. */
    private void launch(int k, TlsIdentity identity, int attempt) {
      CompletableFuture<ClientLink> link;
      try {
        link = ClientLink.connectAsync(s.servers(), identity, options, group);
      } catch (RuntimeException e) {
        failed(e);
        handshakes.release();
        return;
      }
      link.whenComplete(
          (l, e) -> {
            if (e == null) {
              connected(k, l);
            } else if (attempt < ATTEMPTS && failure.get() == null) {
              retried.incrementAndGet();
              group.schedule(
                  () -> launch(k, identity, attempt + 1), RETRY_PAUSE_MS, TimeUnit.MILLISECONDS);
              return; // the retry keeps the permit
            } else {
              failed(e instanceof CompletionException ? e.getCause() : e);
            }
            handshakes.release();
          });
    }

    private void connected(int k, ClientLink link) {
      clients[k] = Client.over(TlsClients.over(link), s.timeout());
      progress.accept(connected.incrementAndGet());
    }

    private void failed(Throwable e) {
      failure.compareAndSet(null, e);
    }

    /** Client {@code k}'s key and certificate; throws naming it when they cannot be read. */
    private TlsIdentity identity(int k) {
      try {
        return TlsIdentity.loadClient(s.keys(), s.firstId() + k);
      } catch (RuntimeException e) { // a damaged file, or no file can be opened any more
        String why = e.getCause() == null ? "" : " (" + Failures.describe(e.getCause()) + ")";
        throw new IllegalArgumentException(
            "client " + (s.firstId() + k) + ": " + e.getMessage() + why, e);
      }
    }
  }

  int size() {
    return clients.length;
  }

  /** The id of the client at {@code index}. */
  int id(int index) {
    return firstId + index;
  }

  /**
   * Every client sends {@code values[index]} to the next session without waiting for the servers'
   * confirmations ({@link Client#send}); returns the session each one sent to.
   */
  long[] sendAll(long[][] values) {
    long[] sessions = new long[clients.length];
    List<CompletableFuture<Void>> sent = new ArrayList<>(clients.length);
    for (int k = 0; k < clients.length; k++) {
      int index = k;
      sent.add(
          CompletableFuture.runAsync(
              () -> sessions[index] = clients[index].send(values[index]), pool));
    }
    joinAll(sent, k -> k, "send");
    return sessions;
  }

  /** The clients at {@code indexes} wait for the outcome of the session each sent to. */
  Client.Counted[] awaitOutcomes(int[] indexes, long[] sessions) {
    Client.Counted[] out = new Client.Counted[indexes.length];
    List<CompletableFuture<Void>> waited = new ArrayList<>(indexes.length);
    for (int k = 0; k < indexes.length; k++) {
      int at = k;
      int index = indexes[k];
      waited.add(
          CompletableFuture.runAsync(
              () -> out[at] = clients[index].awaitOutcome(sessions[index]), pool));
    }
    joinAll(waited, k -> indexes[k], "wait for its outcome");
    return out;
  }

  /**
   * Waits for every task; throws the first failure, naming the client of that task ({@code
   * clientOf} maps a task's position to the client's index).
   */
  private void joinAll(
      List<CompletableFuture<Void>> tasks, IntUnaryOperator clientOf, String what) {
    RuntimeException first = null;
    for (int k = 0; k < tasks.size(); k++) {
      try {
        tasks.get(k).join();
      } catch (CompletionException e) {
        if (first == null) {
          first = failed(id(clientOf.applyAsInt(k)), e.getCause(), what);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private static RuntimeException failed(int client, Throwable cause, String what) {
    String reason = cause.getMessage() != null ? cause.getMessage() : Failures.describe(cause);
    String message = "client " + client + " could not " + what + ": " + reason;
    if (cause instanceof NetworkException) {
      return new NetworkException(message, cause);
    }
    if (cause instanceof IllegalArgumentException) { // a value outside the servers' bits
      return new IllegalArgumentException(message, cause);
    }
    return new IllegalStateException(message, cause);
  }

  /** Disconnects every client and stops the threads. */
  @Override
  public void close() {
    for (Client c : clients) {
      if (c != null) {
        c.close();
      }
    }
    pool.shutdownNow();
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
  }

  private static ThreadFactory daemons(String name) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + count.getAndIncrement());
      t.setDaemon(true);
      return t;
    };
  }
}
