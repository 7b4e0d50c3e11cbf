package dev.cohort.socket;

import dev.cohort.transport.Parties;
import dev.cohort.transport.TransportOptions;
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
    return Parties.bind(parties, options, SocketNetwork::bind);
  }

  /** Binds and connects every party, in parallel; returns the transports in party order. */
  static List<SocketTransport> connect(int parties, IntFunction<TransportOptions> options) {
    return Parties.connect(parties, options, SocketNetwork::bind, SocketNetwork::connect);
  }

  /** Live threads of the socket transports, by name. */
  static long threads() {
    return Parties.threads(SocketNetwork.THREAD_PREFIX);
  }
}
