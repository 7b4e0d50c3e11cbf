package dev.cohort.cli;

import dev.cohort.cli.DistanceAverageOptions.Setup;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Field;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.spdz.DealerFiles;
import dev.cohort.spdz.MaterialException;
import dev.cohort.transport.TransportNetwork;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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
      "Exit code: 0 on success; 1 if, in one JVM, the result does not match the plaintext sum (or"
          + " on an unexpected error); 2 for bad options, input files or settings that differ"
          + " between the parties; 3 when a peer fails; 4 when the protocol aborts; 5 on a local"
          + " I/O error; 6 when SPDZ material runs out or is burned; 130 or 143 when stopped by"
          + " Ctrl-C or SIGTERM after the current batch.",
      ""
    })
final class DemoDistanceAverage implements Callable<Integer> {

  private static final Logger log = LoggerFactory.getLogger(DemoDistanceAverage.class);

  /** Runs that print a line per session by default have at most this many sessions. */
  static final int PRINT_SESSIONS_UP_TO = 10;

  @Spec CommandSpec spec;

  @Mixin DistanceAverageOptions o;

  /** How long a signal waits for the current batch before the process ends anyway. */
  private static final Duration STOP_PATIENCE = Duration.ofSeconds(30);

  private GracefulStop stop;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (o.clients != null) {
      return clients(out);
    }
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
                + (first.party() == 0 && o.checkpointFile != null
                    ? ", saved in " + o.checkpointFile + ": start again to continue"
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
            o.parallelism,
            o.stopAfter == null ? Long.MAX_VALUE : o.stopAfter,
            sumBits,
            o.checkpointEvery);
    Checkpoint checkpoint = new Checkpoint(o.checkpointFile);
    long devicesCount = parties - 1;
    boolean printEach = !o.json && (o.eachSession || setup.sessions() <= PRINT_SESSIONS_UP_TO);
    Progress progress =
        new Progress(err, setup.sessions(), !o.noProgress && !o.json && Progress.onTerminal());
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
      if (o.party == null) {
        loopback =
            (o.plaintext
                    ? Loopback.insecurePlaintext(setup.transport())
                    : Loopback.tls(setup.transport()))
                .withEmulation(o.links.emulation());
        try (LocalParties local =
            LocalParties.builder(parties)
                .suite(setup.suite())
                .config(config)
                .mesh(loopback)
                .open()) {
          outcomes = local.onEngines((p, engine) -> roles.apply(p).run(engine));
        }
      } else {
        outcomes = List.of(runOneParty(setup, config, roles.apply(o.party)));
      }
    } finally {
      progress.finish();
      if (setup.offline() != null) {
        setup.offline().close();
      }
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
    if (setup.offline() != null) {
      header.add(row("offline phase", offlineLine(setup.offline())));
    }
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
                    + o.parallelism
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
      if (o.party == null) {
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
    if (o.json) {
      report.printJson(out);
    } else {
      report.print(out);
    }
    return match ? 0 : 1;
  }

  /**
   * What the background offline phase did, and how long the online phase of this process's parties
   * waited for its material (printed in the report, and logged).
   */
  private String offlineLine(BackgroundOffline offline) {
    double waitedMillis = offline.waitNanos() / 1e6;
    String whose = o.party == null ? "all parties" : "P" + o.party;
    log.info(
        "the online phase waited {} ms for the offline phase's material ({})",
        String.format(Locale.ROOT, "%.1f", waitedMillis),
        whose);
    return String.format(
        Locale.ROOT,
        "MASCOT in the background %s, %d triples made; the online phase waited %.1f ms (%s)",
        offline.description(),
        offline.triplesMade(),
        waitedMillis,
        whose);
  }

  /**
   * This process's party of a deployment: it listens at its address in the parties file, dials the
   * others there and runs {@code mine}; a failure is its own, so it is not wrapped as a party's.
   */
  private DistanceAverageParty.Outcome runOneParty(
      Setup setup, EngineConfig config, DistanceAverageParty mine) {
    PartiesFile file = setup.partiesFile();
    List<InetSocketAddress> addresses = file.addresses();
    if (setup.offline() != null) {
      setup.offline().listen();
    }
    TransportNetwork network =
        setup
            .transport()
            .bind(o.party, file.parties(), addresses.get(o.party), o.partyOptions(file.keys()));
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
    if (o.preprocessing == null) {
      return;
    }
    DealerFiles.Remaining left = DealerFiles.remaining(o.preprocessing, f, p, parties);
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
            o.preprocessing,
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
            o.preprocessing));
  }

  /** The devices as input clients ({@code --clients}): {@link DemoClients}. */
  private int clients(PrintWriter out) {
    if (o.clients < 1 || o.party != null || o.devices != null) {
      throw new ParameterException(
          spec.commandLine(),
          "--clients N (N >= 1) runs servers and clients in this JVM; it takes neither --party"
              + " nor --devices");
    }
    int sessions = o.sessions == null ? 5 : o.sessions;
    Traces traces =
        o.tracesFile != null
            ? Traces.read(o.tracesFile)
            : Traces.generate(o.seed, o.clients, sessions);
    if (traces.devices() < o.clients) {
      throw new ParameterException(
          spec.commandLine(),
          "the traces hold " + traces.devices() + " devices, fewer than --clients " + o.clients);
    }
    Field field = o.field == null ? dev.cohort.field.Fields.MERSENNE_61 : o.field;
    return new DemoClients(o.clients, sessions, field, traces).run(out);
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
    Transport transport = Transport.parse(o.transportName);
    String security =
        o.plaintext
            ? "plain TCP (INSECURE)"
            : "TLS 1.3 with mutual authentication ("
                + transport.tlsImplementation()
                + "), "
                + (o.party == null ? "keys generated for this run" : "keys from the parties file");
    String kind = transport.description();
    return (o.party == null
            ? kind + " over loopback, all parties in this JVM, " + security
            : kind + ", this process runs P" + o.party + " of " + o.partiesFile + ", " + security)
        + o.links.describe();
  }

  private Setup checkedSetup() {
    try {
      return o.setup();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private static String[] row(String name, String value) {
    return new String[] {name, value};
  }
}
