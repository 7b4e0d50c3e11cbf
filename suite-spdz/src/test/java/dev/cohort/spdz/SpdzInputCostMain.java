package dev.cohort.spdz;

import dev.cohort.api.Computation;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.random.Prg;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.ForwardingSuite;
import java.time.Duration;

/**
 * What inputs in range by construction cost: 3 parties over 2^127 − 1, P0 inputs {@code L} (default
 * 1000) 32-bit values, each party opens nothing; rounds and the median wall time of several runs,
 * from input bits ({@link SpdzRangeInput}: k masked bits per value) and as unranged field elements
 * ({@link SpdzInput}: ε = x − r, no range guarantee). A measurement printed for a person, not a
 * test. Run with {@code java -cp ... dev.cohort.spdz.SpdzInputCostMain [L] [runs]}.
 */
final class SpdzInputCostMain {

  private SpdzInputCostMain() {}

  /** SPDZ whose declared-range inputs are input as field elements, with no range guarantee. */
  private static SuiteFactory unproven(SuiteFactory spdz) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return spdz.name();
      }

      @Override
      public dev.cohort.field.Field field() {
        return spdz.field();
      }

      @Override
      public void validate(int parties) {
        spdz.validate(parties);
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new ForwardingSuite(spdz.create(party, parties, prg)) {
          @Override
          public RoundProtocol input(int owner, long[] values, int length, int bits) {
            return delegate.input(owner, values, length);
          }
        };
      }
    };
  }

  public static void main(String[] args) {
    int length = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 7;
    long[] values = new long[length];
    for (int i = 0; i < length; i++) {
      values[i] = (i * 2654435761L) % (1L << 31) - (i % 2) * (1L << 30);
    }
    Computation<String> inputs =
        b -> {
          b.input(0, b.myId() == 0 ? values : null, length, 32);
          return () -> "done";
        };
    SuiteFactory proven = SpdzSuite.insecureFactory(Fields.MERSENNE_127, 1);
    for (boolean prove : new boolean[] {false, true, false, true}) {
      SuiteFactory suite = prove ? proven : unproven(proven);
      long[] nanos = new long[runs];
      long rounds = 0;
      for (int r = 0; r < runs; r++) {
        LocalParties parties =
            new LocalParties(
                3, suite, EngineConfig.defaults().withInsecureSeed(r), Duration.ofSeconds(60));
        long start = System.nanoTime();
        Result<String> result = parties.run(inputs).get(0);
        nanos[r] = System.nanoTime() - start;
        rounds = result.metrics().rounds();
      }
      java.util.Arrays.sort(nanos);
      System.out.printf(
          "%s: %d inputs of 32 bits, 3 parties, m127: %d rounds, median %.2f ms of %d runs%n",
          prove ? "in range" : "unranged", length, rounds, nanos[runs / 2] / 1e6, runs);
    }
  }
}
