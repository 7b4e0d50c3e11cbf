package dev.cohort.cli;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsIdentity;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of {@code cohort demo distance-average}, and the checked {@link Setup} they make:
 * mistakes become an {@link IllegalArgumentException} with a message for the user (the command
 * turns it into a one-line usage error, exit code 2).
 */
final class DistanceAverageOptions {

  @Option(
      names = "--devices",
      paramLabel = "N",
      description = "Number of devices (default: 2; or as many as --traces or --parties hold).")
  Integer devices;

  @Option(
      names = "--clients",
      paramLabel = "N",
      description =
          "Run the devices as N input clients of 3 BGW servers instead of as MPC parties: each"
              + " device secret-shares its distance to the servers over its own TLS connections"
              + " and is done (all in this JVM; default sessions: 5).")
  Integer clients;

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
      names = "--threads",
      paramLabel = "T",
      defaultValue = "1",
      description =
          "Threads each party splits its large local kernels over (resharing, Beaver"
              + " combination, MAC-check sums, PRG expansion) (default: ${DEFAULT-VALUE}). Results"
              + " and messages do not change; parties may differ in it.")
  int threads;

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
      names = "--offline-phase",
      description =
          "SPDZ only: the parties make their material among themselves while the demo runs"
              + " (MASCOT: oblivious transfer over a mesh of their own), a batch of each kind"
              + " ahead; no dealer. The report says how long the online phase waited for it."
              + " With --party, every party must give it, and the offline phase's mesh has the"
              + " same certificates as the online one on a port of its own: the parties file's"
              + " 'offline=PORT' field on each party's line.")
  boolean offlinePhase;

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
      description =
          "The parties file: lines 'ID HOST PORT [CLIENT_PORT] [offline=PORT]' (offline=: the"
              + " port of the party's background offline phase, for --offline-phase) and 'keys"
              + " DIR', the keys directory.")
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

  /** What a run needs, checked: mistakes become one-line usage errors (exit code 2). */
  record Setup(
      int parties,
      int sessions,
      SuiteFactory suite,
      Traces traces,
      String tracesDescription,
      String tracesId,
      PartiesFile partiesFile,
      Transport transport,
      BackgroundOffline offline) {}

  Setup setup() {
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
    SuiteFactory suite;
    BackgroundOffline offline = null;
    if (offlinePhase) {
      if (!suiteName.equals("spdz") || preprocessing != null || dealerSeed != null) {
        throw new IllegalArgumentException(
            "--offline-phase is for --suite spdz, without --preprocessing or"
                + " --insecure-dealer-seed");
      }
      Field f = field == null ? Fields.MERSENNE_127 : field;
      offline =
          file == null
              ? BackgroundOffline.loopback(transport, plaintext)
              : BackgroundOffline.deployment(
                  transport,
                  party,
                  file.offlineAddresses(partiesFile),
                  partyOptions(file.keys()),
                  partiesFile);
      suite =
          SpdzSuite.factory(
              SpdzConfig.of(f, offline, "offline phase (MASCOT) in the background")
                  .withThreads(threads));
    } else {
      suite =
          new SuiteChoice(suiteName, field, preprocessing, dealerSeed, threads)
              .factory(party != null);
    }
    checkFieldSize(suite.field());
    suite.validate(n); // before generating traces: --devices 100000 is refused at once
    if (traces == null) {
      traces = Traces.generate(seed, n - 1, total);
    }
    return new Setup(n, total, suite, traces, described, tracesId, file, transport, offline);
  }

  /**
   * The transport options of this process's party ({@code --party}): TLS with its identity from
   * {@code keys} (or plain TCP with {@code --insecure-plaintext}), and the emulated links.
   */
  TransportOptions partyOptions(Path keys) {
    return links.applyTo(
        plaintext
            ? TransportOptions.plaintextInsecure()
            : TransportOptions.tls(TlsIdentity.load(keys, party)));
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
}
