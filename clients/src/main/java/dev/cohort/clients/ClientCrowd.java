package dev.cohort.clients;

import dev.cohort.transport.tls.TlsIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;

/**
 * Many clients of a {@link LocalDeployment} at once: they connect in parallel (each with its own
 * certificate and TLS connections) and submit from a pool of threads, each client as soon as its
 * connections are up. What the demo and the benchmarks of input clients drive.
 */
public final class ClientCrowd implements AutoCloseable {

  /**
   * Handshakes in flight at once: thousands started together only queue at the servers' accept and
   * TLS work and time out, while the cores do the same work either way.
   */
  static final int MAX_CONNECTING = 128;

  private final List<Client> clients;

  private ClientCrowd(List<Client> clients) {
    this.clients = clients;
  }

  public int size() {
    return clients.size();
  }

  /**
   * Connects a client per identity and has client {@code j} send {@code values[j]} to the next
   * session as soon as it is connected ({@link Client#send}: no confirmation is awaited, the
   * session's outcome says what counted); returns when every client has sent. Throws naming the
   * first client that failed.
   */
  public static ClientCrowd connectAndSubmit(
      LocalDeployment deployment,
      List<TlsIdentity> identities,
      long[][] values,
      ExecutorService pool,
      Duration timeout) {
    List<CompletableFuture<Client>> submitted = new ArrayList<>();
    Semaphore connecting = new Semaphore(MAX_CONNECTING);
    for (int j = 0; j < identities.size(); j++) {
      long[] v = values[j];
      connecting.acquireUninterruptibly();
      submitted.add(
          deployment
              .connect(identities.get(j))
              .whenComplete((link, failure) -> connecting.release())
              .thenApplyAsync(
                  link -> {
                    Client c = Client.over(TlsClients.over(link), timeout);
                    c.send(v);
                    return c;
                  },
                  pool));
    }
    return new ClientCrowd(joinAll(submitted));
  }

  /** Every client sends {@code values[j]} to the next session; returns once all have sent. */
  public void submitAll(long[][] values, ExecutorService pool) {
    List<CompletableFuture<Client>> submitted = new ArrayList<>();
    for (int j = 0; j < clients.size(); j++) {
      Client c = clients.get(j);
      long[] v = values[j];
      submitted.add(
          CompletableFuture.supplyAsync(
              () -> {
                c.send(v);
                return c;
              },
              pool));
    }
    joinAll(submitted);
  }

  private static List<Client> joinAll(List<CompletableFuture<Client>> futures) {
    List<Client> out = new ArrayList<>(futures.size());
    RuntimeException first = null;
    for (CompletableFuture<Client> f : futures) {
      try {
        out.add(f.join());
      } catch (CompletionException e) {
        if (first == null) {
          first =
              e.getCause() instanceof RuntimeException r
                  ? r
                  : new IllegalStateException(e.getCause());
        }
      }
    }
    if (first != null) {
      for (Client c : out) {
        c.close();
      }
      throw first;
    }
    return out;
  }

  /** Disconnects every client. */
  @Override
  public void close() {
    for (Client c : clients) {
      c.close();
    }
  }
}
