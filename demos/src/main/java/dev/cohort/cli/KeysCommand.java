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

/**
 * {@code cohort keys}: writes a CA and one TLS key and certificate per party, and per input client
 * of the client link; or adds client keys to a directory that holds the CA's key.
 */
@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Generates a CA and, for each party, an ECDSA P-256 key and a certificate whose CN"
          + " (cohort-party-<id>) binds the party id; with --clients, also a key and a certificate"
          + " for each input client (CN cohort-client-<id>, client authentication only), signed"
          + " by the same CA.",
      "",
      "--clients without --parties adds client keys to an existing directory: it must hold"
          + " ca.pem and ca-key.pem; the CA and the parties' files are left as they are.",
      "",
      "Files: ca.pem, ca-key.pem, party-<id>.pem, party-<id>-key.pem, client-<id>.pem,"
          + " client-<id>-key.pem. Give each party (and each client) the CA certificate and its"
          + " own two files only; keep ca-key.pem offline.",
      ""
    })
final class KeysCommand implements Callable<Integer> {

  /** More parties than this is surely a typo: the full mesh would need n(n-1)/2 connections. */
  static final int MAX_PARTIES = 1000;

  /** More clients than this is surely a typo (each key takes a few milliseconds). */
  static final int MAX_CLIENTS = 1_000_000;

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "N",
      description = "Number of parties (ids 0..N-1): writes a fresh CA and the parties' keys.")
  Integer parties;

  @Option(
      names = "--clients",
      paramLabel = "M",
      description =
          "Number of input clients (ids 0..M-1): writes their keys, signed by the CA written with"
              + " --parties, or by the one already in DIR.")
  Integer clients;

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
    if (parties == null && clients == null) {
      throw usage("give --parties N, --clients M, or both");
    }
    check("parties", parties, MAX_PARTIES);
    check("clients", clients, MAX_CLIENTS);
    PrintWriter stdout = spec.commandLine().getOut();
    if (parties != null) {
      Certificates.generate(out, parties);
      stdout.printf(
          "wrote a CA and keys for %d parties (P0..P%d) to %s%n", parties, parties - 1, out);
      stdout.printf("give party <id> ca.pem, party-<id>.pem and party-<id>-key.pem only%n");
    }
    if (clients != null) {
      try {
        Certificates.generateClients(out, clients);
      } catch (IllegalArgumentException e) { // no CA key there, or one that is not ca.pem's
        throw usage(e.getMessage());
      }
      stdout.printf(
          "wrote keys for %d input clients (0..%d), signed by the CA in %s%n",
          clients, clients - 1, out);
      stdout.printf("give client <id> ca.pem, client-<id>.pem and client-<id>-key.pem only%n");
    }
    stdout.flush();
    return 0;
  }

  private void check(String name, Integer count, int max) {
    if (count != null && (count < 1 || count > max)) {
      throw usage(name + " (" + count + ") must be between 1 and " + max);
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
