package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import java.math.BigInteger;

/**
 * Integer division of secrets, rounding toward −∞.
 *
 * <p>By a public constant d: q0 = ⌊a·M / 2^ℓ⌋ with M = ⌈2^ℓ / d⌉ and ℓ = k + ⌈log2 d⌉ + 1 is q or q
 * − 1, and one comparison of the remainder a − q0·d with d fixes it: two truncation-sized steps. By
 * a secret: restoring long division, one comparison and one multiplication per quotient bit (k
 * sequential comparisons; batched over the whole vector).
 */
public final class Division {

  private Division() {}

  /** ⌊a / d⌋ for k-bit signed a and a public d ≥ 1. */
  public static SecretVector byConstant(Numeric b, SecretVector a, long d, int k) {
    return byConstant(b, a, d, k, Comparison.DEFAULT_KAPPA);
  }

  public static SecretVector byConstant(Numeric b, SecretVector a, long d, int k, int kappa) {
    if (d < 1) {
      throw new IllegalArgumentException("divisor (" + d + ") must be >= 1");
    }
    if (d == 1) {
      return a;
    }
    int logD = 64 - Long.numberOfLeadingZeros(d - 1); // ⌈log2 d⌉
    int shift = k + logD + 1;
    int room = b.fieldBits() - kappa - 2 - k; // the largest ℓ a truncation of a·M allows
    if (shift > room) {
      // Too large for one step: divide approximately with the precision the field allows, then
      // divide the (much shorter) remainder: ⌊a/d⌋ = q0 + ⌊(a − q0·d)/d⌋ exactly.
      int precision = room;
      if (precision <= logD + 1) {
        Comparison.requireField(b, k + shift, kappa, "division of " + k + "-bit values by " + d);
      }
      SecretVector q0 = approximate(b, a, d, k, precision, kappa);
      SecretVector remainder = b.sub(a, b.mul(q0, d));
      int remainderBits = k - precision + logD + 1;
      return b.add(q0, byConstant(b, remainder, d, remainderBits, kappa));
    }
    Comparison.requireField(b, k + shift, kappa, "division of " + k + "-bit values by " + d);
    SecretVector q0 = approximate(b, a, d, k, shift, kappa); // q or q − 1
    SecretVector remainder = b.sub(a, b.mul(q0, d)); // in [0, 2d)
    long[] ds = new long[a.length()];
    java.util.Arrays.fill(ds, d);
    SecretVector small = Comparison.lessThan(b, remainder, b.known(ds), logD + 2, kappa);
    return b.add(b.sub(q0, small), 1); // q0 + [remainder >= d]
  }

  /** ⌊a · ⌈2^ℓ/d⌉ / 2^ℓ⌋, within 2^(k−1−ℓ) + 1 of a/d. */
  private static SecretVector approximate(
      Numeric b, SecretVector a, long d, int k, int shift, int kappa) {
    BigInteger twoL = BigInteger.ONE.shiftLeft(shift);
    BigInteger multiplier = twoL.add(BigInteger.valueOf(d - 1)).divide(BigInteger.valueOf(d));
    return Comparison.truncate(b, b.mul(a, multiplier), k + shift, shift, kappa);
  }

  /**
   * ⌊a / d⌋ for secret a in [0, 2^aBits) and secret d in [1, 2^dBits), by restoring long division:
   * aBits sequential rounds of one comparison of (aBits + dBits + 1)-bit values each, batched over
   * the whole vector. For d = 0 the result is 2^aBits − 1: d is secret, so no error can be raised;
   * callers that may divide by zero must test d.
   */
  public static SecretVector bySecret(
      Numeric b, SecretVector a, int aBits, SecretVector d, int dBits, int kappa) {
    int k = aBits + dBits + 1;
    Comparison.requireField(
        b, k + 1, kappa, "division of " + aBits + "-bit by " + dBits + "-bit secret values");
    SecretVector remainder = a;
    SecretVector quotient = null;
    for (int i = aBits - 1; i >= 0; i--) {
      SecretVector shifted = b.mul(d, BigInteger.ONE.shiftLeft(i));
      // bit i of the quotient is [remainder >= d·2^i]
      SecretVector bit = Comparison.not(b, Comparison.lessThan(b, remainder, shifted, k, kappa));
      remainder = b.sub(remainder, b.mul(bit, shifted));
      SecretVector term = b.mul(bit, BigInteger.ONE.shiftLeft(i));
      quotient = quotient == null ? term : b.add(quotient, term);
    }
    return quotient;
  }

  /**
   * a / d rounded toward zero, for signed a of aBits bits and signed nonzero d of dBits bits (signs
   * by two comparisons, magnitudes by {@link #bySecret}).
   */
  public static SecretVector signedBySecret(
      Numeric b, SecretVector a, int aBits, SecretVector d, int dBits, int kappa) {
    SecretVector signA = sign(b, a, aBits, kappa);
    SecretVector signD = sign(b, d, dBits, kappa);
    SecretVector quotient = bySecret(b, b.mul(signA, a), aBits, b.mul(signD, d), dBits, kappa);
    return b.mul(b.mul(signA, signD), quotient);
  }

  /** +1 for a ≥ 0, −1 for a < 0. */
  static SecretVector sign(Numeric b, SecretVector a, int k, int kappa) {
    return b.add(b.mul(Comparison.lessThanZero(b, a, k, kappa), -2), 1);
  }
}
