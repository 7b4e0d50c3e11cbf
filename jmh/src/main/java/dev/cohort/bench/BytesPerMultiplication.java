package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.SecretVector;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Bytes per multiplication per party at n = 3, from {@link RunMetrics#bytesSent} (frame bytes,
 * headers included, before TLS): (bytes with a vector multiplication of {@value #N} − bytes of the
 * same inputs without it) / {@value #N}, per party (summed over its peers), for BGW and SPDZ (2^61
 * − 1) over the given transports. SPDZ's figure includes its share of the final MAC check.
 *
 * <p>Run: {@code java -cp jmh/target/benchmarks.jar dev.cohort.bench.BytesPerMultiplication [tls]
 * [memory]} (default tls); prints each figure against the target (8 bytes for BGW, 32 for
 * SPDZ, plus at most 10 % framing) and exits with status 1 where one is missed.
 */
public final class BytesPerMultiplication {

  static final int PARTIES = 3;
  static final int N = 100_000;
  static final int BITS = 32;
  static final long SEED = 20240601L;
  static final double FRAMING = 0.10; // framing allowed on top of the target

  private BytesPerMultiplication() {}

  public static void main(String[] args) {
    String[] transports = args.length == 0 ? new String[] {Transports.TLS} : args;
    boolean met = true;
    for (String transport : transports) {
      for (String suite : new String[] {"bgw", "spdz"}) {
        double[] perParty = measure(suite, Fields.MERSENNE_61, transport);
        double limit = target(suite) * (1 + FRAMING);
        boolean ok = Arrays.stream(perParty).allMatch(b -> b <= limit);
        met &= ok;
        System.out.printf(
            "%s m61 %s: bytes per multiplication per party %s (target %d + 10%% framing = %.1f: %s)%n",
            suite,
            transport,
            Arrays.toString(perParty),
            target(suite),
            limit,
            ok ? "met" : "MISSED");
      }
    }
    if (!met) {
      System.exit(1);
    }
  }

  /** The target at n = 3: n − 1 − t = 1 element for BGW, d and e to 2 peers for SPDZ. */
  static int target(String suite) {
    return suite.equals("bgw") ? 8 : 32;
  }

  /** Bytes per multiplication of each party: bytes with the multiplication minus without, / N. */
  static double[] measure(String suite, Field field, String transport) {
    SuiteFactory factory =
        suite.equals("bgw")
            ? BgwSuite.factory(field)
            : SpdzSuite.factory(
                SpdzConfig.of(
                    field, SpdzBenchmark.Replayed.source(field, N), "insecure dealer, replayed"));
    SplittableRandom random = new SplittableRandom(42);
    long[] xs = new long[N];
    long[] ys = new long[N];
    for (int i = 0; i < N; i++) {
      xs[i] = random.nextInt();
      ys[i] = random.nextInt();
    }
    Computation<SecretVector> with =
        b -> Deferred.of(b.mul(b.input(0, xs, N, BITS), b.input(1, ys, N, BITS)));
    Computation<SecretVector> without =
        b -> {
          b.input(0, xs, N, BITS);
          return Deferred.of(b.input(1, ys, N, BITS));
        };
    try (LocalParties parties = Transports.standing(transport, PARTIES, factory, SEED)) {
      parties.run(without); // one-off set-up rounds out of the way
      List<Result<SecretVector>> a = parties.run(with);
      List<Result<SecretVector>> b = parties.run(without);
      double[] perParty = new double[PARTIES];
      for (int p = 0; p < PARTIES; p++) {
        long bytes = a.get(p).metrics().totalBytesSent() - b.get(p).metrics().totalBytesSent();
        perParty[p] = (double) bytes / N;
      }
      return perParty;
    }
  }
}
