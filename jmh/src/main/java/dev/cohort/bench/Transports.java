package dev.cohort.bench;

import dev.cohort.engine.EngineConfig;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.Mesh;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.suite.SuiteFactory;
import java.time.Duration;

/**
 * The values of the benchmarks' {@code transport} parameter, as the harness's {@link Mesh}: {@value
 * #MEMORY}, the in-memory transport; {@value #TLS} and {@code plaintext}, one Netty endpoint per
 * party on loopback; {@value #SOCKET_TLS} and {@code socket-plaintext}, one blocking-socket
 * endpoint per party (the party thread does its own I/O). TLS is mutual, with keys generated for
 * the parties and deleted when they close. The benchmarks list some of these; JMH takes the others
 * too: {@code -p transport=tls,socket-tls}.
 */
final class Transports {

  static final String MEMORY = "memory";
  static final String TLS = "tls";
  static final String SOCKET_TLS = "socket-tls";

  /** How long a benchmark run may take before its parties are named as not finished. */
  static final Duration DEADLINE = Duration.ofSeconds(120);

  private Transports() {}

  /** The mesh {@code transport} names. */
  static Mesh.Factory mesh(String transport) {
    return switch (transport) {
      case MEMORY -> Mesh.inMemory(Duration.ofSeconds(60));
      case TLS -> Loopback.tls(Transport.NETTY);
      case "plaintext" -> Loopback.insecurePlaintext(Transport.NETTY);
      case SOCKET_TLS -> Loopback.tls(Transport.SOCKET);
      case "socket-plaintext" -> Loopback.insecurePlaintext(Transport.SOCKET);
      default ->
          throw new IllegalArgumentException(
              "transport "
                  + transport
                  + ": want memory, tls, plaintext, socket-tls or socket-plaintext");
    };
  }

  /**
   * Standing parties over {@code transport}: engines and threads alive until closed, P0 on the
   * caller's thread, so an invocation measures the protocol, not start-up. INSECURE: engines use a
   * fixed PRG seed, for repeatable benchmarks only.
   */
  static LocalParties standing(
      String transport, int parties, SuiteFactory suite, long insecureSeed) {
    return standing(
        transport, parties, suite, EngineConfig.defaults().withInsecureSeed(insecureSeed));
  }

  /** As above, with the engines' configuration given whole (e.g. groups of sessions). */
  static LocalParties standing(
      String transport, int parties, SuiteFactory suite, EngineConfig config) {
    return LocalParties.builder(parties)
        .suite(suite)
        .config(config)
        .mesh(mesh(transport))
        .deadline(DEADLINE)
        .standing()
        .open();
  }
}
