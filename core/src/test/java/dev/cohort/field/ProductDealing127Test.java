package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Pins the term step of {@link ProductDealing127} to {@code BigInteger} arithmetic, and checks
 * which coefficients take the one-pass kernel; its results are pinned by {@code FieldContract}'s
 * dealProducts properties, which {@link Mersenne127Test} runs.
 */
class ProductDealing127Test {

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final BigInteger TWO_127 = BigInteger.ONE.shiftLeft(127);
  private static final BigInteger P = TWO_127.subtract(BigInteger.ONE);

  /**
   * A term added to limb sums that hold a canonical value: the folded sum is the value plus
   * ±u·2^shift·x mod p, and every limb stays below 2^43·(1 + u·2^shift') with shift' the part of
   * the shift applied to the limbs.
   */
  @Property(seed = "42")
  void addTerm_anyOperands_foldsToSumModP(
      @ForAll("below127") BigInteger x,
      @ForAll("factors") long u,
      @ForAll @IntRange(min = 0, max = 126) int shift,
      @ForAll boolean negate,
      @ForAll("below127") BigInteger before) {
    BigInteger y = before.mod(P);
    long[] sums = {7, limb(y, 0), limb(y, 1), limb(y, 2), 7};
    ProductDealing127.Term term =
        ProductDealing127.Term.of(new SmallConstants127.Small(u, shift, negate ? -1L : 0L));
    ProductDealing127.addTerm(x.longValue(), x.shiftRight(64).longValue(), term, sums, 1);
    for (int j = 1; j <= 3; j++) {
      assertTrue(sums[j] >= 0 && sums[j] < 1L << 62, "limb " + j + ": " + sums[j]);
    }
    assertEquals(7, sums[0]);
    assertEquals(7, sums[4]);
    long[] out = new long[2];
    Limbs127.foldLimbs(sums, 1, out, 0);
    BigInteger c = BigInteger.valueOf(u).shiftLeft(shift);
    assertEquals((negate ? c.negate() : c).multiply(x).add(y).mod(P), value(out, 0));
  }

  @Example
  void termOf_factorAtBound_isNull() {
    long bound = ProductDealing127.FACTOR_BOUND;
    assertTrue(ProductDealing127.Term.of(new SmallConstants127.Small(bound - 1, 5, 0)) != null);
    assertEquals(null, ProductDealing127.Term.of(new SmallConstants127.Small(bound, 0, 0)));
  }

  private static long limb(BigInteger v, int j) {
    return v.shiftRight(43 * j).longValue() & ((1L << 43) - 1);
  }

  @Example
  void dealProducts_bgwConstants_takeTheOnePassKernel() {
    BigInteger half = P.add(BigInteger.ONE).shiftRight(1); // 1/2 = 2^126
    BigInteger threeHalves = half.multiply(BigInteger.valueOf(3));
    // dealer P0's at n = 3: kept 3/2·d + ρ, sent −3/2·d + 3ρ
    long[][] coefficients = {
      pack(threeHalves, BigInteger.ONE), pack(threeHalves.negate(), three())
    };
    int n = ProductDealing127.MIN_BATCH;
    long[] a = new long[2 * n];
    long[] r = new long[2 * n];
    long[] acc = new long[2 * n];
    long[] out = new long[2 * n];
    assertTrue(ProductDealing127.dealProducts(a, a, 0, r, coefficients, acc, out, 0, n));
    assertFalse(ProductDealing127.dealProducts(a, a, 0, r, coefficients, acc, out, 0, n - 1));
    BigInteger third = three().modInverse(P);
    long[][] dense = {coefficients[0], pack(third, three())};
    assertFalse(ProductDealing127.dealProducts(a, a, 0, r, dense, acc, out, 0, n));
  }

  private static BigInteger three() {
    return BigInteger.valueOf(3);
  }

  /** Two elements packed, each reduced mod p. */
  private static long[] pack(BigInteger first, BigInteger second) {
    BigInteger f = first.mod(P);
    BigInteger s = second.mod(P);
    return new long[] {
      f.longValue(), f.shiftRight(64).longValue(), s.longValue(), s.shiftRight(64).longValue()
    };
  }

  @Provide
  Arbitrary<BigInteger> below127() {
    return edgesOr(TWO_127);
  }

  /** Edges near 0, 2^64, 2^126, p and the bound, or uniform below {@code bound}. */
  private static Arbitrary<BigInteger> edgesOr(BigInteger bound) {
    List<BigInteger> edges = new ArrayList<>();
    for (BigInteger v :
        List.of(
            BigInteger.ZERO,
            TWO_64,
            BigInteger.ONE.shiftLeft(63),
            BigInteger.ONE.shiftLeft(126),
            P)) {
      for (int d = -2; d <= 2; d++) {
        edges.add(v.add(BigInteger.valueOf(d)));
      }
    }
    edges.add(bound.subtract(BigInteger.ONE));
    edges.removeIf(v -> v.signum() < 0 || v.compareTo(bound) >= 0);
    return Arbitraries.oneOf(
        Arbitraries.of(edges),
        Arbitraries.bigIntegers().between(BigInteger.ZERO, bound.subtract(BigInteger.ONE)));
  }

  @Provide
  Arbitrary<Long> factors() {
    long max = ProductDealing127.FACTOR_BOUND - 1;
    return Arbitraries.oneOf(
        Arbitraries.of(0L, 1L, 2L, 3L, max, max - 1), Arbitraries.longs().between(0, max));
  }

  private static BigInteger value(long[] a, int o) {
    BigInteger lo = new BigInteger(Long.toUnsignedString(a[o]));
    return new BigInteger(Long.toUnsignedString(a[o + 1])).shiftLeft(64).add(lo);
  }
}
