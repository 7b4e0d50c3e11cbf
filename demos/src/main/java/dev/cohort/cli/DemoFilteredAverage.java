package dev.cohort.cli;

import dev.cohort.api.Deferred;
import dev.cohort.api.SecretVector;
import dev.cohort.lib.Statistics;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort demo filtered-average}: every party holds records (a value and whether the record
 * matches a filter); everyone learns the average value of the matching records of all parties, and
 * nothing else: not the count, not any one party's values.
 */
@Command(
    name = "filtered-average",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "The filtered average: every party inputs L records, each a value and a secret bit saying"
          + " whether it matches a filter; the parties compute sum(value * bit) / sum(bit) over"
          + " all records as a fixed-point number (secure division by the secret count) and"
          + " open it to everyone.",
      "",
      "All parties run as threads in this JVM over loopback with the Netty transport and TLS."
          + " Exit code: 0 if the result matches the plaintext, 1 if not or the run fails, 2 for"
          + " bad options.",
      ""
    })
final class DemoFilteredAverage implements Callable<Integer> {

  /** Declared bit length of a value: values are in [0, 2^(VALUE_BITS-1)). */
  static final int VALUE_BITS = 16;

  /** Fractional bits of the result. */
  static final int FRACTION_BITS = 8;

  @Spec CommandSpec spec;

  @Mixin DemoOptions options;

  @Option(
      names = "--parties",
      paramLabel = "N",
      defaultValue = "3",
      description = "Number of parties (default: ${DEFAULT-VALUE}).")
  int parties;

  @Option(
      names = "--records",
      paramLabel = "L",
      defaultValue = "100",
      description = "Records per party (default: ${DEFAULT-VALUE}).")
  int records;

  @Override
  public Integer call() {
    if (records < 1 || records > 1 << 20) {
      throw new ParameterException(
          spec.commandLine(), "records (" + records + ") must be in [1, 2^20]");
    }
    var suite = options.suite(spec, parties);
    long[][] values = new long[parties][records];
    long[][] matches = new long[parties][records];
    Random random = new Random(options.seed);
    for (int p = 0; p < parties; p++) {
      for (int i = 0; i < records; i++) {
        values[p][i] = random.nextInt(1 << (VALUE_BITS - 1));
        matches[p][i] = random.nextInt(3) == 0 ? 1 : 0;
      }
    }
    matches[0][0] = 1; // at least one record matches, so the average is defined
    LoopbackRun<Long> run =
        LoopbackRun.run(
            parties,
            suite,
            options.plaintext,
            options.links,
            me ->
                b -> {
                  SecretVector x = null;
                  SecretVector y = null;
                  for (int p = 0; p < parties; p++) {
                    SecretVector xp = b.input(p, me == p ? values[p] : null, records, VALUE_BITS);
                    // 2 bits: a signed input of 1 bit could only be -1 or 0
                    SecretVector yp = b.input(p, me == p ? matches[p] : null, records, 2);
                    x = x == null ? xp : b.concat(x, xp);
                    y = y == null ? yp : b.concat(y, yp);
                  }
                  Deferred<Long> average =
                      b.open(Statistics.filteredAverage(b, x, y, VALUE_BITS, FRACTION_BITS));
                  return average;
                });
    long numerator = 0;
    long count = 0;
    for (int p = 0; p < parties; p++) {
      for (int i = 0; i < records; i++) {
        numerator += values[p][i] * matches[p][i];
        count += matches[p][i];
      }
    }
    long expected = (numerator << FRACTION_BITS) / count;
    long result = run.results().get(0).value();
    boolean match = result == expected;
    double scale = 1 << FRACTION_BITS;
    List<String[]> header = new ArrayList<>();
    header.add(new String[] {"demo", "filtered average"});
    header.add(new String[] {"suite", suite.name()});
    header.add(
        new String[] {
          "parties",
          parties
              + ", "
              + records
              + " records each, values of "
              + VALUE_BITS
              + " bits, seed "
              + options.seed
        });
    header.add(new String[] {"transport", options.transport()});
    header.add(
        new String[] {
          "average",
          String.format(
              Locale.ROOT,
              "%.4f (%d/2^%d, opened to every party)",
              result / scale,
              result,
              FRACTION_BITS)
        });
    header.add(
        new String[] {
          "plaintext check",
          String.format(
              Locale.ROOT,
              "%.4f over %d matching records (%s)",
              expected / scale,
              count,
              match ? "match" : "MISMATCH")
        });
    PrintWriter out = spec.commandLine().getOut();
    DemoReport report = new DemoReport(header, run.outcomes(), 0, run.wallNanos(), run.usage());
    if (options.json) {
      report.printJson(out);
    } else {
      report.print(out);
    }
    return match ? 0 : 1;
  }
}
