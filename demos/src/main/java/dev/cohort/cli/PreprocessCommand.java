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
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

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
      "WARNING: this is a trusted dealer. The process that runs it sees all the material, and"
          + " anyone who holds every file can forge MACs and read every input. It is meant for"
          + " tests and demos; a deployment needs a real offline phase.",
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
      paramLabel = "N",
      required = true,
      description = "Number of parties, at least 2.")
  int parties;

  @Option(
      names = "--field",
      paramLabel = "FIELD",
      defaultValue = "m127",
      converter = DemoInnerProduct.FieldConverter.class,
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
    try {
      if (parties < 2 || parties > KeysCommand.MAX_PARTIES) {
        throw new IllegalArgumentException(
            "parties (" + parties + ") must be between 2 and " + KeysCommand.MAX_PARTIES);
      }
      SpdzConfig.insecureDealer(field, 0); // checks that the field is large enough for MACs
      amounts = new DealerFiles.Amounts(triples, random, bits, inputs, inputBits);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    List<Path> files = DealerFiles.write(out, field, parties, amounts);
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
    stdout.println("trusted dealer: this process saw all the material; for tests and demos only");
    stdout.flush();
    return 0;
  }
}
