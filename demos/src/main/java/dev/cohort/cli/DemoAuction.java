package dev.cohort.cli;

import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.lib.Extremes;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort demo auction}: a sealed-bid auction. Every party is a bidder with a secret bid;
 * everyone learns the highest bid and the index of its bidder, nothing else.
 */
@Command(
    name = "auction",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "A sealed-bid auction: every party inputs a secret bid; the parties compute the highest"
          + " bid and the winner's index (the first among equal bids) with secure comparisons"
          + " (a tournament tree) and open both to everyone.",
      "",
      "All parties run as threads in this JVM over loopback with the Netty transport and TLS."
          + " Exit code: 0 if the result matches the plaintext, 1 if not or the run fails, 2 for"
          + " bad options.",
      ""
    })
final class DemoAuction implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DemoOptions options;

  @Option(
      names = "--bidders",
      paramLabel = "N",
      defaultValue = "5",
      description = "Number of parties, each a bidder (default: ${DEFAULT-VALUE}).")
  int bidders;

  @Option(
      names = "--bits",
      paramLabel = "B",
      defaultValue = "24",
      description = "Bids are in [0, 2^(B-1)) (default: ${DEFAULT-VALUE}).")
  int bits;

  @Override
  public Integer call() {
    if (bits < 2 || bits > 40) {
      throw new ParameterException(spec.commandLine(), "bits (" + bits + ") must be in [2, 40]");
    }
    var suite = options.suite(spec, bidders);
    long[] bids = new long[bidders];
    Random random = new Random(options.seed);
    for (int p = 0; p < bidders; p++) {
      bids[p] = (long) (random.nextDouble() * (1L << (bits - 1)));
    }
    LoopbackRun<long[]> run =
        LoopbackRun.run(
            bidders,
            suite,
            options.plaintext,
            options.links,
            me ->
                b -> {
                  List<Secret> all = new ArrayList<>();
                  for (int p = 0; p < bidders; p++) {
                    all.add(b.input(p, me == p ? bids[p] : 0, bits));
                  }
                  SecretVector vector = b.vector(all);
                  Deferred<Long> highest = b.open(Extremes.max(b, vector, bits));
                  Deferred<Long> winner = b.open(Extremes.argmax(b, vector, bits));
                  return () -> new long[] {highest.get(), winner.get()};
                });
    int expectedWinner = 0;
    for (int p = 1; p < bidders; p++) {
      if (bids[p] > bids[expectedWinner]) {
        expectedWinner = p;
      }
    }
    long[] result = run.results().get(0).value();
    boolean match = result[0] == bids[expectedWinner] && result[1] == expectedWinner;
    List<String[]> header = new ArrayList<>();
    header.add(new String[] {"demo", "sealed-bid auction"});
    header.add(new String[] {"suite", suite.name()});
    header.add(
        new String[] {
          "parties", bidders + " bidders, bids of " + bits + " bits, seed " + options.seed
        });
    header.add(new String[] {"transport", options.transport()});
    header.add(
        new String[] {"highest bid", result[0] + " by P" + result[1] + " (opened to every party)"});
    header.add(
        new String[] {
          "plaintext check",
          bids[expectedWinner]
              + " by P"
              + expectedWinner
              + " ("
              + (match ? "match" : "MISMATCH")
              + ")"
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
