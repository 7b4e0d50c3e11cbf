package dev.cohort.cli;

import dev.cohort.api.PartyId;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.net.Channel;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.socket.SocketNetwork;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsProvider;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Connects parties over a real transport (Netty, or blocking sockets: {@link Transport}): all of
 * them as threads in this JVM on loopback, or this process's one party to the others listed in a
 * parties file.
 */
final class Mesh {

  /** What a party does once connected; runs on the party's own thread. */
  @FunctionalInterface
  interface PartyTask<T> {
    T run(int party, Channel transport);
  }

  /** The transports a party can connect with; both speak the same wire format and TLS. */
  enum Transport {
    /** {@link NettyNetwork}: event loops, BoringSSL where it loads, link emulation, heartbeats. */
    NETTY("Netty"),
    /** {@link SocketNetwork}: the party thread does its own I/O; lower latency per round. */
    SOCKET("blocking sockets");

    final String description;

    Transport(String description) {
      this.description = description;
    }

    /** The TLS implementation this transport runs here, for reports. */
    String tls() {
      return this == SOCKET ? "JDK" : TlsProvider.AUTO.implementation();
    }

    /** "netty" or "socket", as on the command line. */
    static Transport parse(String name) {
      for (Transport t : values()) {
        if (t.name().equalsIgnoreCase(name)) {
          return t;
        }
      }
      throw new IllegalArgumentException("transport " + name + ": want netty or socket");
    }

    /** Refuses what this transport cannot do with {@code options}, as a usage error. */
    void check(TransportOptions options) {
      if (this == SOCKET && !LinkEmulation.NONE.equals(options.emulation())) {
        throw new IllegalArgumentException(
            "--latency-ms and --bandwidth-mbit need --transport netty (the socket transport"
                + " does not emulate links)");
      }
    }
  }

  /** One party's listening endpoint of either transport. */
  private interface Endpoint extends AutoCloseable {
    InetSocketAddress localAddress();

    Channel connect(List<InetSocketAddress> addresses);

    @Override
    void close();
  }

  private static Endpoint bind(
      Transport transport, int self, int parties, InetSocketAddress at, TransportOptions options) {
    if (transport == Transport.SOCKET) {
      SocketNetwork network = SocketNetwork.bind(self, parties, at, options);
      return new Endpoint() {
        public InetSocketAddress localAddress() {
          return network.localAddress();
        }

        public Channel connect(List<InetSocketAddress> addresses) {
          return network.connect(addresses);
        }

        public void close() {
          network.close();
        }
      };
    }
    NettyNetwork network = NettyNetwork.bind(self, parties, at, options);
    return new Endpoint() {
      public InetSocketAddress localAddress() {
        return network.localAddress();
      }

      public Channel connect(List<InetSocketAddress> addresses) {
        return network.connect(addresses);
      }

      public void close() {
        network.close();
      }
    };
  }

  private Mesh() {}

  /**
   * Binds every party on 127.0.0.1 (port 0), connects the full mesh and runs {@code task} for each
   * party on its own thread. The first party to fail is rethrown, naming it, with the others'
   * failures suppressed; a failing engine aborts its channel, so the others fail promptly.
   */
  static <T> List<T> loopback(
      int parties, IntFunction<TransportOptions> options, Transport kind, PartyTask<T> task) {
    List<Endpoint> networks = new ArrayList<>();
    List<InetSocketAddress> addresses = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(parties);
    try {
      for (int p = 0; p < parties; p++) {
        Endpoint network =
            bind(kind, p, parties, new InetSocketAddress("127.0.0.1", 0), options.apply(p));
        networks.add(network);
        addresses.add(network.localAddress());
      }
      CompletionService<T> done = new ExecutorCompletionService<>(pool);
      List<Future<T>> futures = new ArrayList<>();
      for (int p = 0; p < parties; p++) {
        int party = p;
        futures.add(
            done.submit(
                () -> {
                  Thread.currentThread().setName("cohort-" + PartyId.of(party));
                  try (Channel transport = networks.get(party).connect(addresses)) {
                    return task.run(party, transport);
                  }
                }));
      }
      PartyFailedException failure = null;
      for (int i = 0; i < parties; i++) {
        Future<T> f = done.take();
        try {
          f.get();
        } catch (ExecutionException e) {
          PartyFailedException failed =
              new PartyFailedException(PartyId.of(futures.indexOf(f)), e.getCause());
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
      List<T> results = new ArrayList<>();
      for (Future<T> f : futures) {
        results.add(f.get());
      }
      return results;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the parties", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
      for (Endpoint network : networks) {
        network.close();
      }
    }
  }

  /** Runs party {@code self} of a deployment: listens at its address, dials the others. */
  static <T> T one(
      int self, PartiesFile parties, TransportOptions options, Transport kind, PartyTask<T> task) {
    InetSocketAddress listen = parties.addresses().get(self);
    Endpoint network = bind(kind, self, parties.parties(), listen, options);
    try (Channel transport = network.connect(parties.addresses())) {
      return task.run(self, transport);
    } finally {
      network.close();
    }
  }
}
