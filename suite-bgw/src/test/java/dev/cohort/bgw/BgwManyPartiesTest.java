package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Deferred;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * BGW at 31 parties and more, where PRSS key sets outgrow an {@code int} bit mask and C(n, t)
 * outgrows a {@code long}: random elements are uniform and nonzero, x + random() hides x, random
 * bits are bits, and the suite uses PRSS exactly when C(n, t) is within the limit. The key-set
 * count is checked against a binomial computed here from factorials.
 */
class BgwManyPartiesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final BigInteger P61 = Fields.MERSENNE_61.modulus();

  /** C(n, t) from factorials: the oracle for the suite's choice between PRSS and dealing. */
  private static BigInteger binomial(int n, int t) {
    return factorial(n).divide(factorial(t).multiply(factorial(n - t)));
  }

  private static BigInteger factorial(int n) {
    BigInteger f = BigInteger.ONE;
    for (int i = 2; i <= n; i++) {
      f = f.multiply(BigInteger.valueOf(i));
    }
    return f;
  }

  private static boolean expectPrss(int n, int t) {
    return binomial(n, t).compareTo(BigInteger.valueOf(BgwConfig.DEFAULT_PRSS_LIMIT)) <= 0;
  }

  private static LocalParties parties(int n, int t, Field field, long seed) {
    BgwConfig config = BgwConfig.of(field);
    return new LocalParties(
        n,
        BgwSuite.factory(t == 0 ? config : config.withThreshold(t)),
        EngineConfig.defaults().withInsecureSeed(seed),
        TIMEOUT);
  }

  /** (n, t, field); t = 0 is the default threshold floor((n − 1) / 2). */
  static Stream<Arguments> manyParties() {
    return Stream.of(
        Arguments.of(31, 1, Fields.MERSENNE_61),
        Arguments.of(32, 1, Fields.MERSENNE_127),
        Arguments.of(40, 1, Fields.MERSENNE_61),
        Arguments.of(63, 0, Fields.MERSENNE_61),
        Arguments.of(64, 1, Fields.MERSENNE_61),
        Arguments.of(65, 1, Fields.MERSENNE_61),
        Arguments.of(65, 0, Fields.MERSENNE_127));
  }

  @ParameterizedTest(name = "n={0} t={1} {2}")
  @MethodSource("manyParties")
  void random_manyParties_distinctNonzeroFromTheMethodTheCountSays(int n, int t, Field field) {
    int length = 8;
    List<Result<BigInteger[]>> results =
        parties(n, t, field, n).run(b -> b.openBig(b.random(length)));
    BigInteger[] values = results.get(0).value();
    Set<BigInteger> distinct = new HashSet<>();
    for (BigInteger v : values) {
      distinct.add(v.mod(field.modulus()));
    }
    assertEquals(length, distinct.size(), "distinct random elements");
    assertTrue(!distinct.contains(BigInteger.ZERO), "a random element opened 0");
    int threshold = t == 0 ? (n - 1) / 2 : t;
    // PRSS makes random elements locally (open: 1 round); dealing takes a round of its own
    int rounds = expectPrss(n, threshold) ? 1 : 2;
    for (Result<BigInteger[]> r : results) {
      assertEquals(rounds, r.metrics().rounds(), "rounds: C(n, t) = " + binomial(n, threshold));
    }
  }

  @ParameterizedTest(name = "n={0} t={1} {2}")
  @MethodSource("manyParties")
  void maskAndBits_manyParties_maskHidesInputAndBitsAreNotConstant(int n, int t, Field field) {
    long x = 12_345;
    int bitCount = 64;
    List<Result<List<BigInteger[]>>> results =
        parties(n, t, field, 100 + n)
            .run(
                b -> {
                  Deferred<BigInteger[]> masked =
                      b.openBig(b.add(b.input(0, new long[] {x, x}, 2, 16), b.random(2)));
                  Deferred<BigInteger[]> bits = b.openBig(b.randomBits(bitCount));
                  return () -> List.of(masked.get(), bits.get());
                });
    BigInteger[] masked = results.get(0).value().get(0);
    for (BigInteger m : masked) {
      assertNotEquals(BigInteger.valueOf(x), m.mod(field.modulus()), "x + random() opened x");
    }
    assertNotEquals(masked[0], masked[1], "two masks were equal");
    int ones = 0;
    for (BigInteger bit : results.get(0).value().get(1)) {
      assertTrue(bit.signum() == 0 || bit.equals(BigInteger.ONE), "not a bit: " + bit);
      ones += bit.intValue();
    }
    assertTrue(ones > 0 && ones < bitCount, ones + " ones of " + bitCount + " bits");
  }

  /**
   * 4000 elements at n = 64, t = 1 (63 PRSS keys per party, the largest count within the default
   * limit) fall into 20 equal ranges of [0, p) as uniform ones would: a chi-square statistic with
   * 19 degrees of freedom below 60 (exceeded by chance with probability about 10^−6).
   */
  @Test
  void random_sixtyFourPartiesPrss_uniformOverTheField() {
    int length = 4000;
    int buckets = 20;
    BigInteger[] values =
        parties(64, 1, Fields.MERSENNE_61, 7).run(b -> b.openBig(b.random(length))).get(0).value();
    int[] counts = new int[buckets];
    Set<BigInteger> distinct = new HashSet<>();
    for (BigInteger v : values) {
      BigInteger canonical = v.mod(P61);
      distinct.add(canonical);
      counts[canonical.multiply(BigInteger.valueOf(buckets)).divide(P61).intValue()]++;
    }
    assertEquals(length, distinct.size(), "distinct random elements");
    double expected = (double) length / buckets;
    double chiSquare = 0;
    for (int c : counts) {
      chiSquare += (c - expected) * (c - expected) / expected;
    }
    assertTrue(chiSquare < 60, "chi-square over " + buckets + " ranges: " + chiSquare);
  }

  /** PRSS with t = 1 has n key sets: set-up must not walk the 2^n subsets (n = 30 took 48 s). */
  @Test
  void setup_thirtyToFortyPartiesThresholdOne_fastAndRandom() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (int n = 30; n <= 40; n++) {
            BigInteger[] values =
                parties(n, 1, Fields.MERSENNE_61, n)
                    .run(b -> b.openBig(b.random(2)))
                    .get(0)
                    .value();
            assertNotEquals(BigInteger.ZERO, values[0], "n=" + n + ": a random element opened 0");
            assertNotEquals(values[0], values[1], "n=" + n + ": two random elements were equal");
          }
        });
  }

  /** Past 2^16 key sets PRSS costs more than dealing at any batch size: such limits are refused. */
  @Test
  void config_prssLimitAboveMaximum_refused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BgwConfig.of(Fields.MERSENNE_61).withPrssLimit((1 << 16) + 1));
    assertEquals("PRSS limit (65537) must be in [0, 65536]", e.getMessage());
    assertEquals(1 << 16, BgwConfig.of(Fields.MERSENNE_61).withPrssLimit(1 << 16).prssLimit());
  }

  @Test
  void setCount_anySize_exactBinomialOrSaturated() {
    BigInteger max = BigInteger.valueOf(Long.MAX_VALUE);
    for (int n = 3; n <= 200; n++) {
      for (int t = 1; 2 * t < n; t++) {
        BigInteger exact = binomial(n, t);
        long expected = exact.compareTo(max) > 0 ? Long.MAX_VALUE : exact.longValueExact();
        assertEquals(expected, Prss.setCount(n, t), "C(" + n + ", " + t + ")");
      }
    }
  }

  /** Every party lists the key sets containing it: C(n − 1, t) of them, distinct, none with it. */
  @Test
  void setsOf_anyParty_everySetContainingItOnce() {
    for (int n : new int[] {3, 5, 7, 31, 33, 64}) {
      for (int t : new int[] {1, 2, 3}) {
        if (2 * t >= n) {
          continue;
        }
        for (int party : new int[] {0, 1, n / 2, n - 1}) {
          List<int[]> sets = Prss.setsOf(party, n, t);
          assertEquals(binomial(n - 1, t).intValueExact(), sets.size(), "n=" + n + " t=" + t);
          Set<List<Integer>> seen = new HashSet<>();
          for (int[] outsiders : sets) {
            assertEquals(t, outsiders.length);
            for (int k = 0; k < t; k++) {
              assertTrue(outsiders[k] >= 0 && outsiders[k] < n && outsiders[k] != party);
              assertTrue(k == 0 || outsiders[k - 1] < outsiders[k], "sorted outsiders");
            }
            assertTrue(seen.add(Arrays.stream(outsiders).boxed().toList()), "repeated");
          }
        }
      }
    }
  }
}
