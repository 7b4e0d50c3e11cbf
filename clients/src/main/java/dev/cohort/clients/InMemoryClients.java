package dev.cohort.clients;

import dev.cohort.api.NetworkException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Clients and input servers connected in memory, for tests and benchmarks of the protocol without
 * TLS: each client has one queue per server, and a client's messages reach the server's {@link
 * ClientEvents} on the client's own thread, as a transport thread would deliver them.
 */
public final class InMemoryClients {

  private final ClientEvents[] servers;
  private final Map<Integer, End> clients = new ConcurrentHashMap<>();
  private volatile Intercept intercept = (server, client, message) -> message;

  /**
   * What a corrupt server does to a message to a client before it leaves (tests: attacks, records).
   */
  @FunctionalInterface
  interface Intercept {
    byte[] apply(int server, int client, byte[] message);
  }

  /** Attaches to {@code servers} (in server order). */
  public InMemoryClients(InputServer... servers) {
    this.servers = servers;
    for (int i = 0; i < servers.length; i++) {
      servers[i].attach(port(i));
    }
  }

  /** Every server-to-client message passes {@code i} from now on. */
  void intercept(Intercept i) {
    this.intercept = i;
  }

  private ClientPort port(int server) {
    return new ClientPort() {
      @Override
      public void send(int client, byte[] message) {
        End e = clients.get(client);
        if (e != null) {
          e.inbox[server].add(intercept.apply(server, client, message));
        }
      }

      @Override
      public void broadcast(byte[] message) {
        broadcastExcept(message, new int[0]);
      }

      @Override
      public void broadcastExcept(byte[] message, int[] skip) {
        for (End e : clients.values()) {
          if (Arrays.binarySearch(skip, e.id) < 0) {
            e.inbox[server].add(intercept.apply(server, e.id, message));
          }
        }
      }
    };
  }

  /** Connects client {@code id} to every server. */
  public End connect(int id) {
    End e = new End(id);
    if (clients.putIfAbsent(id, e) != null) {
      throw new IllegalStateException("client " + id + " is connected already");
    }
    for (ClientEvents s : servers) {
      s.connected(id);
    }
    return e;
  }

  /** One client's links to the servers. */
  public final class End implements ServerLinks {
    final int id;
    final BlockingQueue<byte[]>[] inbox;

    @SuppressWarnings("unchecked")
    End(int id) {
      this.id = id;
      this.inbox = new BlockingQueue[servers.length];
      for (int i = 0; i < servers.length; i++) {
        inbox[i] = new LinkedBlockingQueue<>();
      }
    }

    @Override
    public int servers() {
      return servers.length;
    }

    @Override
    public void send(int server, byte[] message) {
      servers[server].message(id, message.clone());
    }

    @Override
    public byte[] receive(int server, Duration timeout) {
      try {
        byte[] m = inbox[server].poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (m == null) {
          throw new NetworkException("server " + server + " sent nothing within " + timeout);
        }
        return m;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NetworkException("interrupted while waiting for server " + server);
      }
    }

    @Override
    public byte[] poll(int server) {
      return inbox[server].poll();
    }

    @Override
    public void close() {
      if (clients.remove(id, this)) {
        for (ClientEvents s : servers) {
          s.disconnected(id);
        }
      }
    }
  }
}
