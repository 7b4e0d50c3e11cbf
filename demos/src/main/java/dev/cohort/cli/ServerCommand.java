package dev.cohort.cli;

import dev.cohort.clientlink.ClientLinkOptions;
import dev.cohort.clientlink.ClientLinkServer;
import dev.cohort.clients.InputServer;
import dev.cohort.clients.ServerStats;
import dev.cohort.clients.SessionOutcome;
import dev.cohort.clients.Shape;
import dev.cohort.clients.Sums;
import dev.cohort.clients.TlsClients;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Field;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.metrics.JvmMetrics;
import dev.cohort.metrics.MetricsRegistry;
import dev.cohort.metrics.MetricsServer;
import dev.cohort.net.Channel;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort server}: one compute server of an input-client deployment. It joins the mesh of the
 * parties file as its party, serves input clients on its client port, and runs sessions of the
 * statistics service ({@link Sums}) until stopped.
 */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Runs one compute server (BGW, or SPDZ with --preprocessing) of an input-client deployment:"
          + " it joins the other servers"
          + " of the parties file over TLS, takes secret-shared submissions of input clients"
          + " ('cohort client') on its client port, and runs one session after another: each"
          + " takes the valid submissions every server received before the session closed, and"
          + " prints the number of contributors, the session's sums and the running sums. Start"
          + " every server of the parties file; stop them with Ctrl-C (a server stops after the"
          + " current session).",
      ""
    })
final class ServerCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--party", paramLabel = "I", required = true, description = "This server's id.")
  int party;

  @Option(
      names = "--parties",
      paramLabel = "FILE",
      required = true,
      description = "The parties file: 'ID HOST PORT CLIENT_PORT' lines and 'keys DIR'.")
  Path partiesFile;

  @Option(
      names = "--field",
      paramLabel = "F",
      defaultValue = "m61",
      converter = FieldConverter.class,
      description = "m61 (2^61 - 1) or m127 (2^127 - 1) (default: ${DEFAULT-VALUE}).")
  Field field;

  @Option(
      names = "--suite",
      paramLabel = "SUITE",
      defaultValue = "bgw",
      description =
          "bgw (honest majority, at least 3 servers) or spdz (active security with abort against"
              + " all servers but one, at least 2; needs --preprocessing) (default:"
              + " ${DEFAULT-VALUE}).")
  String suite;

  @Option(
      names = "--preprocessing",
      paramLabel = "DIR",
      description =
          "With --suite spdz: the directory of this server's SPDZ file (party-I.spdz, from 'cohort"
              + " preprocess --party I', or from the INSECURE dealer for tests), which also"
              + " supplies the clients' input masks.")
  Path preprocessing;

  @Option(
      names = "--bits",
      paramLabel = "B,B,...",
      split = ",",
      defaultValue = "32",
      description =
          "Declared bit length of each value a client submits; values are signed, in"
              + " [-2^(B-1), 2^(B-1)) (default: ${DEFAULT-VALUE}).")
  int[] bits;

  @Option(
      names = "--deadline-ms",
      paramLabel = "MS",
      defaultValue = "10000",
      description = "A session closes this long after it opens (default: ${DEFAULT-VALUE}).")
  long deadlineMs;

  @Option(
      names = "--close-after",
      paramLabel = "K",
      defaultValue = "0",
      description =
          "A session closes as soon as this server has K submissions; 0: at the deadline only"
              + " (default: ${DEFAULT-VALUE}).")
  int closeAfter;

  @Option(
      names = "--sessions",
      paramLabel = "N",
      defaultValue = "0",
      description = "Stop after N sessions; 0: run until stopped (default: ${DEFAULT-VALUE}).")
  long sessions;

  @Option(
      names = "--state",
      paramLabel = "FILE",
      description =
          "Where this server saves its shares of the running sums after every session; a"
              + " restarted server continues from it. Without it the state lives in memory only.")
  Path state;

  @Option(
      names = "--metrics-port",
      paramLabel = "P",
      description =
          "Serve GET /health and GET /metrics (Prometheus text format: sessions, contributors,"
              + " refused and excluded submissions by reason, connected clients, check and"
              + " computation times, bytes; the JVM's heap, direct buffers and threads) over plain"
              + " HTTP on this port.")
  Integer metricsPort;

  @Option(
      names = "--metrics-address",
      paramLabel = "HOST",
      defaultValue = "127.0.0.1",
      description =
          "Where the metrics endpoint listens; it has no authentication, so keep it on a"
              + " monitoring-only address (default: ${DEFAULT-VALUE}).")
  String metricsAddress;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  @Override
  public Integer call() throws InterruptedException {
    PartiesFile file = PartiesFile.read(partiesFile);
    if (party < 0 || party >= file.parties()) {
      throw new ParameterException(
          spec.commandLine(),
          "--party " + party + " is not in the parties file (0.." + (file.parties() - 1) + ")");
    }
    if (file.keys() == null) {
      throw new ParameterException(
          spec.commandLine(), "the parties file names no keys directory ('keys DIR')");
    }
    boolean spdz = suite.equals("spdz");
    SuiteFactory factory;
    try {
      factory = new SuiteChoice(suite, field, preprocessing, null).factory(true);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (file.parties() < (spdz ? 2 : 3)) {
      throw new ParameterException(
          spec.commandLine(),
          (spdz ? "SPDZ servers need at least 2" : "BGW servers need at least 3")
              + " parties, the file lists "
              + file.parties());
    }
    file.checkOwnHost(party, partiesFile);
    Shape shape;
    try {
      shape = new Shape(bits);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--bits: " + e.getMessage());
    }
    PrintWriter out = spec.commandLine().getOut();
    TlsIdentity identity = TlsIdentity.load(file.keys(), party);
    List<java.net.InetSocketAddress> addresses = file.addresses();
    TransportNetwork network =
        Transport.NETTY.bind(
            party, file.parties(), addresses.get(party), TransportOptions.tls(identity));
    try (GracefulStop stop = GracefulStop.install(Duration.ofSeconds(30), () -> {});
        Channel channel = network.connect(addresses)) {
      Engine engine = new Engine(factory, channel, EngineConfig.defaults());
      InputServer.Builder b =
          (spdz
                  ? InputServer.spdz(engine, channel, shape)
                  : InputServer.bgw(engine, channel, shape))
              .deadline(Duration.ofMillis(deadlineMs));
      if (closeAfter > 0) {
        b.closeAfter(closeAfter);
      }
      MetricsRegistry registry = new MetricsRegistry();
      InputServer server = b.state(state).stats(new ServerStats(registry)).build();
      try (ClientLinkServer link =
              TlsClients.serve(
                  server,
                  file.clientAddress(party, partiesFile),
                  identity,
                  ClientLinkOptions.defaults());
          MetricsServer metrics = metrics(registry, link, channel)) {
        if (metrics != null) {
          out.printf("P%d: metrics on http://%s/metrics%n", party, hostPort(metrics));
        }
        out.printf(
            Locale.ROOT,
            "P%d: %s, serving input clients on %s (TLS 1.3); values of %s bits; sessions close"
                + " after %d ms%s%n",
            party,
            suite.toUpperCase(Locale.ROOT),
            link.localAddress(),
            Arrays.toString(bits),
            deadlineMs,
            closeAfter > 0 ? " or " + closeAfter + " submissions" : "");
        out.flush();
        for (long k = 0; sessions == 0 || k < sessions; k++) {
          SessionOutcome<long[]> o = server.runSession(new Sums());
          print(out, o, shape.columns());
          if (stop.requested()) {
            out.printf("P%d: stopped after session %d (state saved)%n", party, o.session());
            out.flush();
            return ExitCode.INTERRUPTED;
          }
        }
      }
    } finally {
      network.close();
    }
    return 0;
  }

  /** The metrics endpoint, with the links' byte counts; null without --metrics-port. */
  private MetricsServer metrics(MetricsRegistry registry, ClientLinkServer link, Channel channel) {
    if (metricsPort == null) {
      return null;
    }
    JvmMetrics.register(registry);
    registry.gauge(
        "client_link_bytes_received", "Bytes received from input clients.", link::bytesReceived);
    registry.gauge("client_link_bytes_sent", "Bytes sent to input clients.", link::bytesSent);
    registry.gauge(
        "mesh_bytes_sent",
        "Bytes sent to the other servers.",
        () -> channel.stats().totalBytesSent());
    return MetricsServer.start(new InetSocketAddress(metricsAddress, metricsPort), registry);
  }

  private static String hostPort(MetricsServer m) {
    return m.localAddress().getHostString() + ":" + m.localAddress().getPort();
  }

  private static void print(PrintWriter out, SessionOutcome<long[]> o, int columns) {
    long[] v = o.value();
    out.printf(
        Locale.ROOT,
        "session %d: %d contributors (%d received%s); sums %s; running sums %s over %d"
            + " contributors; %.1f ms to check, %.1f ms to compute%n",
        o.session(),
        o.contributors(),
        o.received(),
        o.excluded().isEmpty() ? "" : ", excluded " + o.excluded(),
        Arrays.toString(Arrays.copyOfRange(v, 0, columns)),
        Arrays.toString(Arrays.copyOfRange(v, columns, 2 * columns)),
        o.totalContributors(),
        o.validateNanos() / 1e6,
        o.metrics().wallNanos() / 1e6);
    out.flush();
  }
}
