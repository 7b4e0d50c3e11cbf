package dev.cohort.socket;

import dev.cohort.transport.Parties;
import dev.cohort.transport.TransportOptions;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Test harness: n parties as threads, each with its own {@link SocketNetwork} on loopback (port 0),
 * connected as a real mesh; {@link Parties#each} runs them and rethrows the first failure.
 */
final class SocketParties {

  private SocketParties() {}

  /** Binds every party on 127.0.0.1:0; the caller connects them. */
  static List<SocketNetwork> bind(int parties, IntFunction<TransportOptions> options) {
    List<SocketNetwork> networks = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      networks.add(
          SocketNetwork.bind(p, parties, new InetSocketAddress("127.0.0.1", 0), options.apply(p)));
    }
    return networks;
  }

  static List<InetSocketAddress> addresses(List<SocketNetwork> networks) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (SocketNetwork network : networks) {
      addresses.add(network.localAddress());
    }
    return addresses;
  }

  /** Binds and connects every party, in parallel; returns the transports in party order. */
  static List<SocketTransport> connect(int parties, IntFunction<TransportOptions> options) {
    List<SocketNetwork> networks = bind(parties, options);
    List<InetSocketAddress> addresses = addresses(networks);
    return Parties.each(parties, p -> networks.get(p).connect(addresses));
  }

  /** Live threads of the socket transports, by name. */
  static long threads() {
    return Parties.threads(SocketNetwork.THREAD_PREFIX);
  }
}
