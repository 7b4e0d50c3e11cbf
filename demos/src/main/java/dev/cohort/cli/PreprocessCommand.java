package dev.cohort.cli;

import dev.cohort.field.Field;
import dev.cohort.spdz.DealerFiles;
import dev.cohort.spdz.SpdzConfig;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code cohort preprocess}: a trusted dealer writes each party's SPDZ preprocessing file. */
@Command(
    name = "preprocess",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Deals SPDZ preprocessing (MAC key shares, Beaver triples, random elements and bits, input"
          + " masks and input bits) and writes one file per party: party-<id>.spdz.",
      "",
      "WARNING: without --party this is a trusted dealer, INSECURE: the process that runs it sees"
          + " all the material, and anyone who holds every file can forge MACs and read every input. It is"
          + " meant for tests and demos.",
      "",
      "With --party I --parties FILE every party runs this command on its own host at the same"
          + " time and they make the material among themselves (the offline phase, MASCOT: oblivious"
          + " transfer over their TLS mesh); no process sees another party's material. This is the"
          + " form for deployments.",
      "",
      "Each file comes with its use record (party-<i>.spdz.used), bound to it by the dealing's"
          + " id: a party records there how much material it has used, so a restarted party"
          + " continues where it stopped. A missing record or one of another dealing is refused,"
          + " and so are the files after a MAC check failed (or was interrupted) on them: the MAC"
          + " key may then be known to a cheating party. Deal fresh files then; dealing again"
          + " replaces the files and their records. Files are created readable by their owner"
          + " only.",
      ""
    })
final class PreprocessCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "N|FILE",
      description =
          "The dealer: the number of parties, at least 2 (or --devices). With --party: the parties"
              + " file (id host port, and 'keys DIR'), and this process runs that party's share of"
              + " the offline phase.")
  String partiesOption;

  @Option(
      names = "--party",
      paramLabel = "I",
      description =
          "Run the offline phase as party I with the other parties of --parties FILE, each on its"
              + " own host at the same time: no dealer, every party writes only its own file to"
              + " --out (MASCOT over the parties' TLS mesh).")
  Integer party;

  private Integer parties;

  @Option(
      names = "--devices",
      paramLabel = "D",
      description = "For the distance-average demo: D devices and the server, D + 1 parties.")
  Integer devices;

  @Option(
      names = "--sessions",
      paramLabel = "S",
      description =
          "Deal what the distance-average demo needs for S sessions (instead of --inputs and"
              + " --input-bits): S input masks of the server, 64 + B * s input bits of the server"
              + " (B = batches, s = 62 on m127, 59 on m61) and 32 * S of each device, plus the"
              + " margin.")
  Long sessions;

  @Option(
      names = "--parallelism",
      paramLabel = "K",
      defaultValue = "1",
      description = "With --sessions: the demo's --parallelism (default: ${DEFAULT-VALUE}).")
  int parallelism;

  @Option(
      names = "--margin",
      paramLabel = "PERCENT",
      defaultValue = "10",
      description =
          "With --sessions: this much more of each kind, for restarts (each restart costs the"
              + " server 64 + s input bits and may skip material drawn when a party stopped;"
              + " default: ${DEFAULT-VALUE}).")
  int margin;

  @Option(
      names = "--max-bytes",
      paramLabel = "SIZE",
      converter = ByteSize.class,
      description =
          "Refuse a dealing that writes more than SIZE (bytes, or with a suffix k, M, G, T; the"
              + " free space of DIR is checked in any case).")
  Long maxBytes;

  @Option(
      names = "--field",
      paramLabel = "FIELD",
      defaultValue = "m127",
      converter = FieldConverter.class,
      description = "m61, m127, or a prime of at least 61 bits (default: ${DEFAULT-VALUE}).")
  Field field;

  @Option(
      names = "--triples",
      paramLabel = "T",
      defaultValue = "0",
      description = "Beaver triples: one per multiplication (default: ${DEFAULT-VALUE}).")
  long triples;

  @Option(
      names = "--random",
      paramLabel = "R",
      defaultValue = "0",
      description = "Random elements (default: ${DEFAULT-VALUE}).")
  long random;

  @Option(
      names = "--bits",
      paramLabel = "B",
      defaultValue = "0",
      description = "Random bits (default: ${DEFAULT-VALUE}).")
  long bits;

  @Option(
      names = "--inputs",
      paramLabel = "I",
      defaultValue = "0",
      description =
          "Input masks per party: one for each value opened to that party only (default:"
              + " ${DEFAULT-VALUE}).")
  long inputs;

  @Option(
      names = "--input-bits",
      paramLabel = "IB",
      defaultValue = "0",
      description =
          "Input bits per party: k for each k-bit value that party inputs (its bits, which make"
              + " the value's range hold by construction; default: ${DEFAULT-VALUE}).")
  long inputBits;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      required = true,
      description = "Directory to write the files to (created if missing; files are replaced).")
  Path out;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  @Override
  public Integer call() throws Exception {
    DealerFiles.Amounts amounts;
    String planned;
    PartiesFile partiesFile = null;
    try {
      if (party != null) {
        partiesFile = PartiesFile.read(Path.of(partiesOption));
        parties = partiesFile.parties();
      } else if (partiesOption != null) {
        parties = parseCount(partiesOption);
      }
      resolveParties();
      SpdzConfig.insecureDealer(field, 0); // checks that the field is large enough for MACs
      if (sessions != null) {
        planned = plan();
      } else {
        planned = null;
      }
      amounts = new DealerFiles.Amounts(triples, random, bits, inputs, inputBits);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    if (partiesFile != null) {
      return new OfflineParty(spec, partiesFile, Path.of(partiesOption), party, field)
          .run(amounts, out, maxBytes == null ? Long.MAX_VALUE : maxBytes, planned);
    }
    List<Path> files =
        DealerFiles.write(
            out, field, parties, amounts, maxBytes == null ? Long.MAX_VALUE : maxBytes);
    PrintWriter stdout = spec.commandLine().getOut();
    long bytes = 0;
    for (Path file : files) {
      bytes += Files.size(file);
    }
    stdout.printf(
        "wrote SPDZ preprocessing over %s for %d parties to %s (%d files, %d bytes)%n",
        field.name(), parties, out, files.size(), bytes);
    stdout.printf(
        "per party: %d triples, %d random elements, %d random bits, %d input masks and %d input"
            + " bits per party%n",
        triples, random, bits, inputs, inputBits);
    if (planned != null) {
      stdout.println(planned);
    }
    stdout.println("trusted dealer: this process saw all the material; for tests and demos only");
    stdout.flush();
    return 0;
  }

  private static int parseCount(String value) {
    try {
      return Integer.parseInt(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--parties '"
              + value
              + "' is not a number of parties; a parties file goes with --party I (the offline"
              + " phase run by every party)");
    }
  }

  /** Parties from --parties or --devices (both: they must agree). */
  private void resolveParties() {
    if (devices != null) {
      if (devices < 1) {
        throw new IllegalArgumentException("devices (" + devices + ") must be >= 1");
      }
      if (parties != null && parties != devices + 1) {
        throw new IllegalArgumentException(
            "parties ("
                + parties
                + ") and devices ("
                + devices
                + ") disagree: the demo has one party per device and the server");
      }
      parties = devices + 1;
    }
    if (parties == null) {
      throw new IllegalArgumentException(
          "give --parties N (or --devices D) for the dealer, or --party I --parties FILE");
    }
    if (parties < 2 || parties > KeysCommand.MAX_PARTIES) {
      throw new IllegalArgumentException(
          "parties (" + parties + ") must be between 2 and " + KeysCommand.MAX_PARTIES);
    }
  }

  /**
   * Sets the amounts the distance-average demo needs for {@link #sessions} sessions ({@link
   * DistanceAverageParty.Material}) plus the margin, and says so.
   */
  private String plan() {
    if (inputs != 0 || inputBits != 0) {
      throw new IllegalArgumentException(
          "give either --sessions (the demo's needs) or --inputs/--input-bits, not both");
    }
    if (sessions < 1 || parallelism < 1 || margin < 0 || margin > 1000) {
      throw new IllegalArgumentException(
          "sessions ("
              + sessions
              + ") and parallelism ("
              + parallelism
              + ") must be >= 1 and margin ("
              + margin
              + ") in [0, 1000]");
    }
    DistanceAverageParty.Material need =
        DistanceAverageParty.Material.of(
            sessions, parallelism, DistanceAverageParty.sumBits(field));
    inputs = withMargin(need.serverMasks());
    inputBits = withMargin(Math.max(need.serverInputBits(), need.deviceInputBits()));
    return String.format(
        "for the distance-average demo: %d sessions of %d devices at parallelism %d over %s"
            + " (%d input masks of the server, %d input bits of the server and %d of each"
            + " device) plus %d %%",
        sessions,
        parties - 1,
        parallelism,
        field.name(),
        need.serverMasks(),
        need.serverInputBits(),
        need.deviceInputBits(),
        margin);
  }

  private long withMargin(long amount) {
    try {
      return Math.addExact(amount, Math.multiplyExact(amount, margin) / 100 + (margin > 0 ? 1 : 0));
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("sessions (" + sessions + ") is too large", e);
    }
  }

  /** A size in bytes: digits with an optional suffix k, M, G or T (powers of 1000). */
  static final class ByteSize implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      String v = value.strip();
      long unit = 1;
      if (!v.isEmpty()) {
        int at = "kMGT".indexOf(v.charAt(v.length() - 1));
        if (at >= 0) {
          unit = (long) Math.pow(1000, at + 1);
          v = v.substring(0, v.length() - 1);
        }
      }
      try {
        long n = Long.parseLong(v);
        if (n < 0) {
          throw new TypeConversionException("'" + value + "' is negative");
        }
        return Math.multiplyExact(n, unit);
      } catch (NumberFormatException | ArithmeticException e) {
        throw new TypeConversionException(
            "'" + value + "' is not a size (digits with an optional suffix k, M, G or T)");
      }
    }
  }
}
