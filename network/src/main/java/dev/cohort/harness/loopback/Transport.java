package dev.cohort.harness.loopback;

import dev.cohort.netty.NettyNetwork;
import dev.cohort.socket.SocketNetwork;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsProvider;
import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * The transports a party can connect with. Both speak the same wire format, TLS and admission rules
 * (a Netty party and a socket party connect to each other); they differ in how they run.
 */
public enum Transport {
  /** {@link NettyNetwork}: event loops, BoringSSL where it loads, link emulation, heartbeats. */
  NETTY("Netty") {
    @Override
    public TransportNetwork bind(
        int self, int parties, InetSocketAddress listen, TransportOptions options) {
      return NettyNetwork.bind(self, parties, listen, options);
    }

    @Override
    public String tlsImplementation() {
      return TlsProvider.AUTO.implementation();
    }
  },

  /** {@link SocketNetwork}: the party thread does its own I/O; lower latency per round. */
  SOCKET("blocking sockets") {
    @Override
    public TransportNetwork bind(
        int self, int parties, InetSocketAddress listen, TransportOptions options) {
      return SocketNetwork.bind(self, parties, listen, options);
    }

    @Override
    public String tlsImplementation() {
      return "JDK";
    }
  };

  private final String description;

  Transport(String description) {
    this.description = description;
  }

  /**
   * Starts party {@code self} of {@code parties} listening on {@code listen} (port 0 picks a free
   * port); refuses options this transport cannot honour.
   */
  public abstract TransportNetwork bind(
      int self, int parties, InetSocketAddress listen, TransportOptions options);

  /** The TLS implementation this transport runs here, for reports. */
  public abstract String tlsImplementation();

  /** "Netty" or "blocking sockets", for reports. */
  public String description() {
    return description;
  }

  /** Whether this transport adds the latency and bandwidth cap of {@code LinkEmulation}. */
  public boolean emulatesLinks() {
    return this == NETTY;
  }

  /** "netty" or "socket", as on a command line, in any case. */
  public static Transport parse(String name) {
    for (Transport t : values()) {
      if (t.name().equals(name.toUpperCase(Locale.ROOT))) {
        return t;
      }
    }
    throw new IllegalArgumentException("transport " + name + ": want netty or socket");
  }
}
