package dev.cohort.cli;

import dev.cohort.transport.tls.Certificates;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code cohort keys}: writes a CA and one TLS key and certificate per party. */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Generates a CA and, for each party, an ECDSA P-256 key and a certificate whose CN"
          + " (cohort-party-<id>) binds the party id.",
      "",
      "Files: ca.pem, ca-key.pem, party-<id>.pem, party-<id>-key.pem. Give each party the CA"
          + " certificate and its own two files only; keep ca-key.pem offline.",
      ""
    })
final class KeysCommand implements Callable<Integer> {

  /** More parties than this is surely a typo: the full mesh would need n(n-1)/2 connections. */
  static final int MAX_PARTIES = 1000;

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "N",
      required = true,
      description = "Number of parties (ids 0..N-1).")
  int parties;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      required = true,
      description = "Directory to write the files to (created if missing; files are replaced).")
  Path out;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  @Override
  public Integer call() {
    if (parties < 1 || parties > MAX_PARTIES) {
      throw new ParameterException(
          spec.commandLine(), "parties (" + parties + ") must be between 1 and " + MAX_PARTIES);
    }
    Certificates.generate(out, parties);
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.printf(
        "wrote a CA and keys for %d parties (P0..P%d) to %s%n", parties, parties - 1, out);
    stdout.printf("give party <id> ca.pem, party-<id>.pem and party-<id>-key.pem only%n");
    stdout.flush();
    return 0;
  }
}
