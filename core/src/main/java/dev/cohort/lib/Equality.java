package dev.cohort.lib;

import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;

/**
 * Equality and zero tests of k-bit signed integers with statistical masking [CdH10, Nishide & Ohta
 * 2007 for the bitwise idea]. Open c = 2^(k−1) + a + r' + 2^k·r'' with k random bits r' and a κ-bit
 * r''; then c' = (c − 2^(k−1)) mod 2^k equals r' exactly when a = 0, that is when the Hamming
 * distance h = Σ (c'_i ⊕ r_i) is zero. The bits c'_i are public, so h is local; it lies in [0, k]
 * and takes only ⌈log2(k + 1)⌉ bits, so [h = 0] is the same test on a far shorter value: masked and
 * opened again (its own fresh masks), until the value is short enough that the AND of its bitwise
 * equalities, a product tree, is cheaper than another level.
 *
 * <p>Cost for a batch of any size at k = 33 (32-bit equality): levels of 33, 6 bits, then a product
 * of 6 bitwise equalities; 39 random bits, two masks r'' (one dealing round on BGW, else κ random
 * bits each), two openings and 5 multiplications in 3 rounds, where one product tree over 33 bits
 * took 32 multiplications in 6 rounds. All random bits and masks are drawn together, before the
 * first opening. When the field has no room for dealt masks (see {@link Numeric#randomMasks}), a
 * single level is used: k + κ random bits, one opening, k − 1 multiplications in ⌈log2 k⌉ rounds.
 *
 * <p>Security: each opened value is v + r' + 2^w·r'' with v in [0, 2^w) and fresh masks that
 * contain a uniform integer of w + κ bits, so every opening is within statistical distance 2^−κ of
 * one that does not depend on v.
 */
public final class Equality {

  private Equality() {}

  /** [a = 0] (1 or 0) for k-bit signed a. */
  public static SecretVector isZero(Numeric b, SecretVector a, int k, int kappa) {
    Comparison.requireField(b, k, kappa, "a zero test of " + k + "-bit values");
    int n = a.length();
    if (n == 0) {
      return a;
    }
    int[] widths = widths(k, Masking.dealtMasks(b, k + kappa));
    Masking[] masks = new Masking[widths.length];
    for (int level = 0; level < widths.length; level++) {
      masks[level] = Masking.draw(b, n, widths[level], kappa);
    }
    return b.vectorOf(zeroTest(b, Masking.offset(b, a, k), masks, 0, n), n);
  }

  /**
   * The bit widths of the values tested level by level: k, then the width of the Hamming distance
   * while one more level costs less than the product tree it replaces (counting a random bit like a
   * multiplication, which it costs on BGW).
   */
  static int[] widths(int k, boolean recurse) {
    int[] widths = {k};
    int w = k;
    while (recurse && w > 1 && levelCost(bitLength(w)) + bitLength(w) < w - 1) {
      w = bitLength(w);
      widths = java.util.Arrays.copyOf(widths, widths.length + 1);
      widths[widths.length - 1] = w;
    }
    return widths;
  }

  /** Random bits plus multiplications to finish a value of width w, by the cheapest levels. */
  private static int levelCost(int w) {
    int product = w - 1;
    if (w <= 2) {
      return product;
    }
    return Math.min(product, bitLength(w) + levelCost(bitLength(w)));
  }

  /** The bits needed for integers in [0, w]. */
  private static int bitLength(int w) {
    return 32 - Integer.numberOfLeadingZeros(w);
  }

  /**
   * [v = 0] for v in [0, 2^w) (w = the level's width), with v offset by 2^(k−1) at level 0 where it
   * came from a signed a.
   */
  private static Step<SecretVector> zeroTest(
      Numeric b, SecretVector v, Masking[] masks, int level, int n) {
    Masking mask = masks[level];
    int w = mask.m();
    return mask.open(b, v)
        .seq(
            (s, c) -> {
              long[][] cBits = Bits.publicBits(c, n, w, level == 0);
              if (level + 1 == masks.length) {
                SecretVector[] equal = new SecretVector[w];
                for (int i = 0; i < w; i++) {
                  equal[i] = Bits.equalPublic(s, cBits[i], mask.rBits(), n, i);
                }
                return Deferred.of(Bits.productTree(s, equal));
              }
              SecretVector distance = Bits.hammingPublic(s, cBits, mask.rBits(), n);
              return Deferred.of(s.vectorOf(zeroTest(s, distance, masks, level + 1, n), n));
            });
  }

  /** [x = y] for k-bit signed x and y. */
  public static SecretVector equal(Numeric b, SecretVector x, SecretVector y, int k) {
    return equal(b, x, y, k, Comparison.DEFAULT_KAPPA);
  }

  public static SecretVector equal(Numeric b, SecretVector x, SecretVector y, int k, int kappa) {
    Comparison.requireField(b, k + 1, kappa, "an equality test of " + k + "-bit values");
    return isZero(b, b.sub(x, y), k + 1, kappa);
  }
}
