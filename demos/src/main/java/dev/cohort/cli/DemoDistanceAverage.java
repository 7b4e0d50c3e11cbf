package dev.cohort.cli;

import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Field;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.spdz.DealerFiles;
import dev.cohort.spdz.MaterialException;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort demo distance-average}: devices report the distance they travelled since the last
 * session, and a statistics server keeps the running sum and average without learning any one
 * device's distance. See {@link DistanceAverageParty} for the protocol of one party.
 *
 * <p>Longer than most classes because about half of it is the twenty options and their help texts,
 * which are the command's documentation; the protocol lives in {@link DistanceAverageParty}, the
 * suite choice in {@link SuiteChoice}, the parties in one JVM in the harness ({@link LocalParties}
 * over a {@link Loopback}) and the report in {@link DemoReport}.
 */
@Command(
    name = "distance-average",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Devices (P1..Pn) report the distance they travelled since the last session; a"
          + " statistics server (P0) keeps the running sum and the running average. Each"
          + " session every device inputs its distance (whole metres, 32 bits), the server"
          + " inputs the running sum, and the new running sum is opened to the server only.",
      "",
      "By default all parties run as threads in this JVM, connected over loopback by the"
          + " Netty transport with TLS 1.3 and keys generated for the run (--transport socket:"
          + " blocking sockets instead, each party's thread doing its own I/O). With --party"
          + " and --parties each party runs in its own process (see the README).",
      "",
      "Distances come from GPS traces by the haversine formula: generated (random walks at"
          + " realistic speeds, one fix every 15-20 minutes) or read from --traces.",
      "",
      "--latency-ms and --bandwidth-mbit emulate slower links in the Netty transport (every"
          + " outbound link of every party).",
      "",
      "Exit code: 0 on success, 1 if the run fails (or, in one JVM, the result does not match"
          + " the plaintext sum), 2 for bad options or input files.",
      ""
    })
final class DemoDistanceAverage implements Callable<Integer> {

  /** Runs that print a line per session by default have at most this many sessions. */
  static final int PRINT_SESSIONS_UP_TO = 10;

  @Spec CommandSpec spec;

  @Option(
      names = "--devices",
      paramLabel = "N",
      description = "Number of devices (default: 2; or as many as --traces or --parties hold).")
  Integer devices;

  @Option(
      names = "--sessions",
      paramLabel = "S",
      description =
          "Sessions of the deployment (default: 1000; with --traces, as many as the traces"
              + " cover). After a restart from --checkpoint, the run continues to session S.")
  Integer sessions;

  @Option(
      names = "--parallelism",
      paramLabel = "K",
      defaultValue = "1",
      description =
          "Sessions in flight per engine run (default: ${DEFAULT-VALUE}); with --party, the"
              + " server's value counts.")
  int parallelism;

  @Option(
      names = "--suite",
      paramLabel = "SUITE",
      defaultValue = "bgw",
      description =
          "bgw (semi-honest, honest majority) or spdz (active) (default: ${DEFAULT-VALUE}).")
  String suiteName;

  @Option(
      names = "--field",
      paramLabel = "FIELD",
      converter = FieldConverter.class,
      description =
          "m61, m127 or a prime of at least 40 bits (default: m61 for bgw, m127 for spdz).")
  Field field;

  @Option(
      names = "--preprocessing",
      paramLabel = "DIR",
      description =
          "SPDZ only: read preprocessing from the files of 'cohort preprocess'; a restart"
              + " continues where the files' use records say (default: an in-process dealer,"
              + " INSECURE). A run of S sessions with D devices in B = ceil(S / K) batches and an"
              + " s-bit running sum (s = 62 on m127) uses S input masks of the server, 64 + B*s"
              + " input bits of the server, 32*S input bits of each device, and no triples.")
  Path preprocessing;

  @Option(
      names = "--insecure-dealer-seed",
      paramLabel = "SEED",
      description =
          "SPDZ only: seed of the in-process dealer, INSECURE (default in one JVM: random;"
              + " required with --party, the same on every party).")
  Long dealerSeed;

  @Option(
      names = "--traces",
      paramLabel = "CSV",
      description =
          "GPS traces: lines device,timestamp,latitude,longitude (timestamp in epoch seconds or"
              + " ISO-8601); devices sorted by name are P1, P2, ...")
  Path tracesFile;

  @Option(
      names = "--seed",
      paramLabel = "SEED",
      defaultValue = "1",
      description = "Seed of the generated traces only (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--checkpoint",
      paramLabel = "FILE",
      description =
          "The server saves the running sum and last finished session here (after every session,"
              + " or see --checkpoint-every; forced to disk) and continues from it when started"
              + " again.")
  Path checkpointFile;

  @Option(
      names = "--checkpoint-every",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "Save the checkpoint every N sessions (and when the run ends or stops): a crash then"
              + " repeats up to N - 1 sessions from the saved sum, none lost or counted twice"
              + " (default: ${DEFAULT-VALUE}).")
  int checkpointEvery;

  @Option(
      names = "--stop-after",
      paramLabel = "N",
      description =
          "Stop after N sessions of this run, to try a restart (default: run them all); with"
              + " --party, the server's value counts.")
  Long stopAfter;

  @Option(
      names = "--party",
      paramLabel = "ID",
      description = "Run only party ID in this process (needs --parties).")
  Integer party;

  @Option(
      names = "--parties",
      paramLabel = "FILE",
      description = "The parties file: id, host and port of every party, and the keys directory.")
  Path partiesFile;

  @Option(
      names = "--insecure-plaintext",
      description = "Plain TCP without TLS: unauthenticated and unencrypted, for benchmarks.")
  boolean plaintext;

  @Option(
      names = "--transport",
      paramLabel = "KIND",
      defaultValue = "netty",
      description =
          "netty, or socket: blocking sockets where each party's thread does its own I/O, lower"
              + " latency per round on few cores, no link emulation (default: ${DEFAULT-VALUE}).")
  String transportName;

  @Mixin LinkOptions links;

  @Option(names = "--each-session", description = "Print the running sum after every session.")
  boolean eachSession;

  @Option(names = "--json", description = "Print only the report, as one JSON object.")
  boolean json;

  @Option(names = "--no-progress", description = "Never show the progress bar.")
  boolean noProgress;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  /** How long a signal waits for the current batch before the process ends anyway. */
  private static final Duration STOP_PATIENCE = Duration.ofSeconds(30);

  private GracefulStop stop;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (GracefulStop installed = GracefulStop.install(STOP_PATIENCE, this::deleteKeys)) {
      stop = installed;
      Measurement m = measure(out, err);
      int code = report(m, out);
      if (installed.requested()) {
        DistanceAverageParty.Outcome first = m.outcomes().get(0);
        err.println(
            "cohort: stopped by a signal after session "
                + first.lastSession()
                + " of "
                + m.setup().sessions()
                + (first.party() == 0 && checkpointFile != null
                    ? ", saved in " + checkpointFile + ": start again to continue"
                    : ": start again to continue")
                + " (exit "
                + ExitCode.TERMINATED
                + " after SIGTERM, "
                + ExitCode.INTERRUPTED
                + " after Ctrl-C)");
        err.flush();
      }
      return code;
    }
  }

  /**
   * The loopback of an in-process run: it generates the run's keys in a temporary directory and
   * deletes them when the run ends, or when Ctrl-C or SIGTERM ends the process ({@link
   * #deleteKeys}).
   */
  private volatile Loopback loopback;

  private void deleteKeys() {
    Loopback current = loopback;
    if (current == null) {
      return;
    }
    try {
      current.close(); // the parties close it again when they end: closing twice is harmless
    } catch (UncheckedIOException e) {
      // best effort while the process ends: a temporary directory left behind is harmless
    }
  }

  /** One run's parties' outcomes and this process's costs. */
  record Measurement(
      Setup setup,
      List<DistanceAverageParty.Outcome> outcomes,
      long wallNanos,
      Resources.Usage usage) {}

  /**
   * Runs the demo as the options say; session lines go to {@code out} and the progress bar to
   * {@code err}. Throws {@link ParameterException} for bad options.
   */
  Measurement measure(PrintWriter out, PrintWriter err) {
    Setup setup = checkedSetup();
    int parties = setup.parties();
    int sumBits = DistanceAverageParty.sumBits(setup.suite().field());
    DistanceAverageParty.Plan plan =
        new DistanceAverageParty.Plan(
            parties,
            setup.sessions(),
            parallelism,
            stopAfter == null ? Long.MAX_VALUE : stopAfter,
            sumBits,
            checkpointEvery);
    Checkpoint checkpoint = new Checkpoint(checkpointFile);
    long devicesCount = parties - 1;
    boolean printEach = !json && (eachSession || setup.sessions() <= PRINT_SESSIONS_UP_TO);
    Progress progress =
        new Progress(err, setup.sessions(), !noProgress && !json && Progress.onTerminal());
    DistanceAverageParty.Listener server =
        (session, sum) -> {
          if (printEach) {
            synchronized (out) {
              out.printf(
                  Locale.ROOT,
                  "session %d: running sum %d m, running average %.1f m per device per session%n",
                  session,
                  sum,
                  sum / (double) (devicesCount * session));
              out.flush();
            }
          }
          progress.update(session);
        };

    Resources resources = Resources.start();
    long start = System.nanoTime();
    List<DistanceAverageParty.Outcome> outcomes;
    IntFunction<DistanceAverageParty> roles = roles(setup, plan, checkpoint, server);
    EngineConfig config =
        DistanceAverageParty.agreed(EngineConfig.defaults(), plan, setup.tracesId());
    try {
      if (party == null) {
        loopback =
            (plaintext
                    ? Loopback.insecurePlaintext(setup.transport())
                    : Loopback.tls(setup.transport()))
                .withEmulation(links.emulation());
        try (LocalParties local =
            LocalParties.builder(parties)
                .suite(setup.suite())
                .config(config)
                .mesh(loopback)
                .open()) {
          outcomes = local.onEngines((p, engine) -> roles.apply(p).run(engine));
        }
      } else {
        outcomes = List.of(runOneParty(setup, config, roles.apply(party)));
      }
    } finally {
      progress.finish();
    }
    long wall = System.nanoTime() - start;
    return new Measurement(setup, outcomes, wall, resources.stop());
  }

  private int report(Measurement m, PrintWriter out) {
    Setup setup = m.setup();
    int parties = setup.parties();
    long devicesCount = parties - 1;
    DistanceAverageParty.Outcome first = m.outcomes().get(0);
    List<String[]> header = new ArrayList<>();
    header.add(row("demo", "distance average"));
    header.add(row("suite", setup.suite().name()));
    header.add(
        row(
            "parties",
            parties
                + " (P0 statistics server, "
                + (parties == 2 ? "P1 device" : "P1..P" + (parties - 1) + " devices")
                + ")"));
    header.add(row("transport", transport()));
    header.add(row("traces", setup.tracesDescription()));
    header.add(
        row(
            "sessions",
            first.sessionsRun() > 0
                ? first.firstSession()
                    + ".."
                    + first.lastSession()
                    + " of "
                    + setup.sessions()
                    + ", up to "
                    + parallelism
                    + " per engine run"
                : "none to run: session "
                    + first.lastSession()
                    + " of "
                    + setup.sessions()
                    + " has finished"));
    boolean match = true;
    if (first.party() == 0) {
      long sum = first.runningSum();
      long done = first.lastSession();
      header.add(row("running sum", sum + " m after session " + done));
      header.add(
          row(
              "running average",
              done == 0
                  ? "none yet"
                  : String.format(
                      Locale.ROOT,
                      "%.1f m per device per session",
                      sum / (double) (devicesCount * done))));
      if (party == null) {
        long expected = plaintextSum(setup.traces(), parties - 1, done);
        match = expected == sum;
        header.add(
            row(
                "plaintext check",
                expected
                    + " m, summed in the clear from the traces this JVM holds ("
                    + (match ? "match" : "MISMATCH")
                    + ")"));
      }
    }
    DemoReport report =
        new DemoReport(header, m.outcomes(), first.sessionsRun(), m.wallNanos(), m.usage());
    if (json) {
      report.printJson(out);
    } else {
      report.print(out);
    }
    return match ? 0 : 1;
  }

  /**
   * This process's party of a deployment: it listens at its address in the parties file, dials the
   * others there and runs {@code mine}; a failure is its own, so it is not wrapped as a party's.
   */
  private DistanceAverageParty.Outcome runOneParty(
      Setup setup, EngineConfig config, DistanceAverageParty mine) {
    PartiesFile file = setup.partiesFile();
    List<InetSocketAddress> addresses = file.addresses();
    TransportNetwork network =
        setup.transport().bind(party, file.parties(), addresses.get(party), options(file.keys()));
    try (Channel channel = network.connect(addresses)) {
      return mine.run(new Engine(setup.suite(), channel, config));
    } finally {
      network.close();
    }
  }

  /** Party p's side of the demo: the server gets the checkpoint and prints; devices do neither. */
  private IntFunction<DistanceAverageParty> roles(
      Setup setup,
      DistanceAverageParty.Plan plan,
      Checkpoint checkpoint,
      DistanceAverageParty.Listener server) {
    return p ->
        new DistanceAverageParty(
                p,
                plan,
                setup.traces(),
                p == 0 ? checkpoint : new Checkpoint(null),
                p == 0 ? server : (session, sum) -> {})
            .stopWhen(session -> stop != null && stop.decide(session))
            .checkMaterial(
                (first, end, k) ->
                    checkMaterial(setup.suite().field(), p, plan.parties(), first, end, k));
  }

  /**
   * With SPDZ dealer files: refuses, before the first session, a run that the files cannot finish,
   * saying how many sessions they cover and what to deal. (Without files: nothing to check.)
   */
  private void checkMaterial(Field f, int p, int parties, long first, long end, int parallelism) {
    if (preprocessing == null) {
      return;
    }
    DealerFiles.Remaining left = DealerFiles.remaining(preprocessing, f, p, parties);
    long deviceBits = Long.MAX_VALUE;
    int poorest = 1;
    for (int d = 1; d < parties; d++) {
      if (left.inputBits(d) < deviceBits) {
        deviceBits = left.inputBits(d);
        poorest = d;
      }
    }
    int sumBits = DistanceAverageParty.sumBits(f);
    long wanted = end - first + 1;
    long covered =
        DistanceAverageParty.sessionsCovered(
            left.inputMasks(0), left.inputBits(0), deviceBits, parallelism, sumBits);
    if (covered >= wanted) {
      return;
    }
    DistanceAverageParty.Material need =
        DistanceAverageParty.Material.of(wanted, parallelism, sumBits);
    throw new MaterialException(
        String.format(
            Locale.ROOT,
            "the SPDZ preprocessing in %s covers %d of the %d sessions of this run (%d..%d):"
                + " it has %d input masks of P0 (%d needed), %d input bits of P0 (%d needed) and"
                + " %d of P%d (%d needed); deal for the run with 'cohort preprocess --devices %d"
                + " --sessions %d --parallelism %d --field %s --out %s' (dealing replaces the"
                + " files)",
            preprocessing,
            covered,
            wanted,
            first,
            end,
            left.inputMasks(0),
            need.serverMasks(),
            left.inputBits(0),
            need.serverInputBits() - 2L * DistanceAverageParty.SESSION_BITS,
            deviceBits,
            poorest,
            need.deviceInputBits(),
            parties - 1,
            wanted,
            parallelism,
            f.name(),
            preprocessing));
  }

  /** Metres all devices travelled in sessions 1..{@code last}: the demo's own check. */
  static long plaintextSum(Traces traces, int devices, long last) {
    long sum = 0;
    for (int s = 1; s <= last; s++) {
      for (int d = 0; d < devices; d++) {
        sum += traces.distance(d, s);
      }
    }
    return sum;
  }

  private String transport() {
    Transport transport = Transport.parse(transportName);
    String security =
        plaintext
            ? "plain TCP (INSECURE)"
            : "TLS 1.3 with mutual authentication ("
                + transport.tlsImplementation()
                + "), "
                + (party == null ? "keys generated for this run" : "keys from the parties file");
    String kind = transport.description();
    return (party == null
            ? kind + " over loopback, all parties in this JVM, " + security
            : kind + ", this process runs P" + party + " of " + partiesFile + ", " + security)
        + links.describe();
  }

  /** This process's party's options in a deployment, with the keys of the parties file. */
  private TransportOptions options(Path keys) {
    return links.applyTo(
        plaintext
            ? TransportOptions.plaintextInsecure()
            : TransportOptions.tls(TlsIdentity.load(keys, party)));
  }

  /** What a run needs, checked: mistakes become one-line usage errors (exit code 2). */
  record Setup(
      int parties,
      int sessions,
      SuiteFactory suite,
      Traces traces,
      String tracesDescription,
      String tracesId,
      PartiesFile partiesFile,
      Transport transport) {}

  private Setup checkedSetup() {
    try {
      return setup();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private Setup setup() {
    links.emulation(); // checks the values
    Transport transport = Transport.parse(transportName);
    if (!transport.emulatesLinks() && !LinkEmulation.NONE.equals(links.emulation())) {
      throw new IllegalArgumentException(
          "--latency-ms and --bandwidth-mbit need --transport netty (the socket transport"
              + " does not emulate links)");
    }
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism (" + parallelism + ") must be >= 1");
    }
    if (checkpointEvery < 1) {
      throw new IllegalArgumentException("checkpoint-every (" + checkpointEvery + ") must be >= 1");
    }
    if (stopAfter != null && stopAfter < 1) {
      throw new IllegalArgumentException("stop-after (" + stopAfter + ") must be >= 1");
    }
    if ((party == null) != (partiesFile == null)) {
      throw new IllegalArgumentException("--party and --parties go together");
    }
    PartiesFile file = null;
    Integer n = devices == null ? null : devices + 1;
    if (partiesFile != null) {
      file = PartiesFile.read(partiesFile);
      if (n != null && n != file.parties()) {
        throw new IllegalArgumentException(
            "devices ("
                + devices
                + ") does not match the parties file, which lists "
                + file.parties()
                + " parties");
      }
      n = file.parties();
      if (party < 0 || party >= n) {
        throw new IllegalArgumentException(
            "party (" + party + ") must be in [0, " + n + ") for " + partiesFile);
      }
      file.checkOwnHost(party, partiesFile);
      if (!plaintext && file.keys() == null) {
        throw new IllegalArgumentException(
            "parties file " + partiesFile + " names no keys directory ('keys DIR')");
      }
    }
    Traces traces;
    String described;
    String tracesId; // what every party must have the same of
    int total;
    if (tracesFile != null) {
      traces = Traces.read(tracesFile);
      tracesId = "file with SHA-256 " + Traces.digest(tracesFile);
      if (n != null && n - 1 != traces.devices()) {
        throw new IllegalArgumentException(
            "devices ("
                + (n - 1)
                + ") does not match "
                + tracesFile
                + ", which holds "
                + traces.devices()
                + " devices");
      }
      n = traces.devices() + 1;
      total = sessions == null ? traces.sessions() : sessions;
      if (total > traces.sessions()) {
        throw new IllegalArgumentException(
            "sessions ("
                + total
                + ") exceeds the "
                + traces.sessions()
                + " that "
                + tracesFile
                + " covers");
      }
      described =
          tracesFile
              + ", "
              + traces.devices()
              + " devices (P1 = "
              + traces.name(0)
              + (traces.devices() > 1 ? ", ..." : "")
              + ")";
    } else {
      n = n == null ? 3 : n;
      total = sessions == null ? 1000 : sessions;
      if (n < 2) {
        throw new IllegalArgumentException("devices (" + (n - 1) + ") must be >= 1");
      }
      if (total < 1 || total > 10_000_000) {
        throw new IllegalArgumentException("sessions (" + total + ") must be in [1, 10000000]");
      }
      traces = null; // generated below, once the suite has accepted n parties
      tracesId = "generated with --seed " + seed;
      described = "generated, seed " + seed + " (random walks, one fix every 15-20 min)";
    }
    if (total < 1) {
      throw new IllegalArgumentException("sessions (" + total + ") must be >= 1");
    }
    SuiteFactory suite =
        new SuiteChoice(suiteName, field, preprocessing, dealerSeed).factory(party != null);
    checkFieldSize(suite.field());
    suite.validate(n); // before generating traces: --devices 100000 is refused at once
    if (traces == null) {
      traces = Traces.generate(seed, n - 1, total);
    }
    return new Setup(n, total, suite, traces, described, tracesId, file, transport);
  }

  private static void checkFieldSize(Field f) {
    if (f.bitLength() < 40) {
      throw new IllegalArgumentException(
          "field "
              + f.name()
              + " ("
              + f.bitLength()
              + " bits) is too small for running sums of metres: use m61 or m127");
    }
  }

  private static String[] row(String name, String value) {
    return new String[] {name, value};
  }
}
