package dev.cohort.cli;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.tls.TlsProvider;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** Options shared by the one-shot demos (auction, filtered average): suite, field, transport. */
final class DemoOptions {

  @Option(
      names = "--suite",
      paramLabel = "SUITE",
      defaultValue = "bgw",
      description =
          "bgw or spdz (with an in-process dealer, INSECURE) (default: ${DEFAULT-VALUE}).")
  String suite;

  @Option(
      names = "--field",
      paramLabel = "FIELD",
      defaultValue = "m127",
      converter = FieldConverter.class,
      description =
          "m127 or a prime big enough for the comparisons' statistical masks (default:"
              + " ${DEFAULT-VALUE}).")
  Field field;

  @Option(
      names = "--seed",
      paramLabel = "SEED",
      defaultValue = "1",
      description = "Seed of the demo's input data only (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--insecure-plaintext",
      description = "Plain TCP without TLS: unauthenticated and unencrypted, for benchmarks.")
  boolean plaintext;

  @Mixin LinkOptions links;

  @Option(names = "--json", description = "Print only the report, as one JSON object.")
  boolean json;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  /** The suite for {@code parties}, or a one-line usage error. */
  SuiteFactory suite(CommandSpec spec, int parties) {
    try {
      links.emulation(); // checks the values
      SuiteFactory factory = new SuiteChoice(suite, field, null, null).factory(false);
      factory.validate(parties);
      return factory;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  String transport() {
    return "Netty over loopback, all parties in this JVM, "
        + (plaintext
            ? "plain TCP (INSECURE)"
            : "TLS 1.3 with mutual authentication ("
                + TlsProvider.AUTO.implementation()
                + "), keys generated for this run")
        + links.describe();
  }
}
