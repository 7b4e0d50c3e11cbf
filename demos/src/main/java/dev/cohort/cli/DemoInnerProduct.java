package dev.cohort.cli;

import dev.cohort.api.Computation;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.bgw.BgwConfig;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.harness.LocalParties;
import dev.cohort.suite.SuiteFactory;
import java.io.PrintWriter;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort demo inner-product}: every party inputs a secret vector; the parties compute the
 * inner product of P0's and P1's vectors plus the sum of every other party's vector, and open it to
 * everyone. All parties run as threads in this JVM over the in-memory transport; the result is
 * checked against the same arithmetic done in the clear.
 */
@Command(
    name = "inner-product",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Computes an inner product with BGW and checks it against the plaintext result.",
      "",
      "All parties run as threads in this JVM over the in-memory transport. Each party inputs"
          + " a secret vector of random 16-bit signed values; the parties compute <P0's vector,"
          + " P1's vector> plus the sum of every other party's vector and open it to everyone.",
      "",
      "Exit code: 0 if the result matches, 1 if it does not or the run fails, 2 for bad"
          + " options.",
      ""
    })
final class DemoInnerProduct implements Callable<Integer> {

  /** How long a party waits for a peer's message before the run fails. */
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  /** The demo keeps every party's vector in this JVM, so the length is capped. */
  static final int MAX_LENGTH = 1 << 24;

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "N",
      defaultValue = "3",
      description = "Number of parties, at least 3 for BGW (default: ${DEFAULT-VALUE}).")
  int parties;

  @Option(
      names = "--threshold",
      paramLabel = "T",
      description = "Most corrupt parties tolerated, 1 <= T < N/2 (default: floor((N-1)/2)).")
  Integer threshold;

  @Option(
      names = "--field",
      paramLabel = "FIELD",
      defaultValue = "m61",
      converter = FieldConverter.class,
      description =
          "m61 (2^61-1), m127 (2^127-1), or a prime in decimal (default: ${DEFAULT-VALUE}).")
  Field field;

  @Option(
      names = "--length",
      paramLabel = "L",
      defaultValue = "1000",
      description = "Values in each party's vector (default: ${DEFAULT-VALUE}).")
  int length;

  @Option(
      names = "--seed",
      paramLabel = "SEED",
      defaultValue = "1",
      description =
          "Seed of the demo's input data only (default: ${DEFAULT-VALUE}); the protocol's"
              + " randomness always comes from SecureRandom.")
  long seed;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  @Override
  public Integer call() {
    SuiteFactory suite = checkedSuite();
    int t = threshold != null ? threshold : (parties - 1) / 2;
    long[][] data = DemoData.vectors(seed, parties, length);

    long start = System.nanoTime();
    LocalParties local = new LocalParties(parties, suite, EngineConfig.defaults(), TIMEOUT);
    List<Result<Long>> results =
        local.runEach(party -> innerProductPlusSums(parties, length, data[party]));
    long wallNanos = System.nanoTime() - start;

    long expected = plaintext(data);
    boolean agree = results.stream().allMatch(r -> r.value().equals(results.get(0).value()));
    boolean match = agree && results.get(0).value() == expected;

    PrintWriter out = spec.commandLine().getOut();
    out.println("Cohort demo: inner product (all parties in one JVM, in-memory transport)");
    out.printf("suite:     %s%n", suite.name());
    out.printf("parties:   %d%n", parties);
    out.printf("threshold: %d%n", t);
    out.printf("field:     %s (%d bits)%n", field.name(), field.bitLength());
    out.printf("inputs:    %d values of %d bits per party, seed %d%n", length, DemoData.BITS, seed);
    out.printf("computes:  %s%n", formula());
    if (agree) {
      out.printf("result:    %d (opened to every party)%n", results.get(0).value());
    } else {
      out.print("result:    differs between parties:");
      for (int p = 0; p < parties; p++) {
        out.printf(" P%d=%d", p, results.get(p).value());
      }
      out.println();
    }
    out.printf("plaintext: %d (%s)%n", expected, match ? "match" : "MISMATCH");
    out.printf("wall time: %.3f ms%n", wallNanos / 1e6);
    out.println("metrics per party:");
    for (Result<Long> r : results) {
      out.print(r.metrics().report());
    }
    out.flush();
    return match ? 0 : 1;
  }

  /** The configured suite, or a usage error (exit code 2) that says what is wrong. */
  private SuiteFactory checkedSuite() {
    try {
      if (length < 1 || length > MAX_LENGTH) {
        throw new IllegalArgumentException(
            "length (" + length + ") must be between 1 and " + MAX_LENGTH);
      }
      BgwConfig config = BgwConfig.of(field);
      if (threshold != null) {
        config = config.withThreshold(threshold);
      }
      SuiteFactory suite = BgwSuite.factory(config);
      suite.validate(parties);
      checkFieldHoldsResult();
      return suite;
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  /** Opened values come back in the symmetric range, so |result| must stay below p / 2. */
  private void checkFieldHoldsResult() {
    BigInteger half = BigInteger.ONE.shiftLeft(DemoData.BITS - 1);
    BigInteger bound =
        half.multiply(half)
            .add(half.multiply(BigInteger.valueOf(parties - 2)))
            .multiply(BigInteger.valueOf(length));
    BigInteger needed = bound.shiftLeft(1).add(BigInteger.ONE);
    if (field.modulus().compareTo(needed) < 0) {
      throw new IllegalArgumentException(
          "field "
              + field.name()
              + " is too small for "
              + length
              + " values and "
              + parties
              + " parties: the result can reach "
              + bound
              + " in absolute value, which needs a prime above "
              + needed
              + " (use m61 or m127)");
    }
  }

  private String formula() {
    String others =
        parties == 3
            ? " + sum of P2's vector"
            : " + sums of the vectors of P2.." + "P" + (parties - 1);
    return "<P0's vector, P1's vector>" + others;
  }

  /** Party {@code me}'s view: its own vector is {@code mine}; the circuit is the same for all. */
  static Computation<Long> innerProductPlusSums(int parties, int length, long[] mine) {
    return builder -> {
      int me = builder.myId();
      SecretVector[] vectors = new SecretVector[parties];
      for (int p = 0; p < parties; p++) {
        vectors[p] = builder.input(p, p == me ? mine : null, length, DemoData.BITS);
      }
      Secret result = builder.innerProduct(vectors[0], vectors[1]);
      for (int p = 2; p < parties; p++) {
        result = builder.add(result, builder.sum(vectors[p]));
      }
      return builder.open(result);
    };
  }

  /** The same arithmetic in the clear. */
  private static long plaintext(long[][] data) {
    long result = 0;
    for (int i = 0; i < data[0].length; i++) {
      result += data[0][i] * data[1][i];
    }
    for (int p = 2; p < data.length; p++) {
      for (long x : data[p]) {
        result += x;
      }
    }
    return result;
  }
}
