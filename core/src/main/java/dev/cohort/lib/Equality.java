package dev.cohort.lib;

import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import java.math.BigInteger;

/**
 * Equality and zero tests of k-bit signed integers with statistical masking [CdH10, Nishide & Ohta
 * 2007 for the bitwise idea]. Open c = 2^(k−1) + a + 2^k·r'' + r' with k random bits r' and a κ-bit
 * r''; then c' = (c − 2^(k−1)) mod 2^k equals r' exactly when a = 0, so [a = 0] is the AND of the k
 * bitwise equalities of c' and r', a product tree.
 *
 * <p>Cost for a batch of any size: k + κ random bits, one opening, k − 1 multiplications in ⌈log2
 * k⌉ rounds.
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
    Masking mask = Masking.open(b, a, k, k, kappa);
    Step<SecretVector> result =
        mask.opened()
            .seq(
                (s, c) -> {
                  BigInteger[] low = Masking.lowBits(c, BigInteger.ONE.shiftLeft(k - 1), k);
                  long[][] cBits = Bits.publicBits(low, k);
                  SecretVector[] equal = new SecretVector[k];
                  for (int i = 0; i < k; i++) {
                    equal[i] = Bits.equalPublic(s, cBits[i], Bits.bit(s, mask.rBits(), n, i));
                  }
                  return Deferred.of(Bits.productTree(s, equal));
                });
    return b.vectorOf(result, n);
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
