package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import java.math.BigInteger;

/**
 * Integer division of secrets, rounding toward −∞.
 *
 * <p>By a public constant d (multiplication by a rounded reciprocal, as in Granlund & Montgomery
 * 1994, "Division by invariant integers using multiplication", with the truncation of [CdH10]): q0
 * = ⌊a·M / 2^P⌋ with M = ⌈2^P / d⌉. For k-bit a, a·M/2^P differs from a/d by less than X =
 * 2^(k−1−P), so the remainder a − q0·d lies in (−X·d, (X + 1)·d):
 *
 * <ul>
 *   <li>P ≥ k + ⌈log2 d⌉ (X ≤ 1/(2d)): q0 is q or q − 1, the remainder is in [0, 2d), and one
 *       comparison with d fixes it;
 *   <li>k ≤ P (X ≤ 1/2): the remainder is in (−d/2, 3d/2), and two comparisons, with 0 and with d,
 *       batched as one, fix it;
 *   <li>P < k (a field too small for more): ⌊a/d⌋ = q0 + ⌊(a − q0·d)/d⌋, and the remainder has
 *       ⌈log2 d⌉ + 1 + k − P bits, so the same method on it ends after a few steps.
 * </ul>
 *
 * <p>The truncation of a·M is sized by the bits a·M really has (k + the bits of M, about k + P −
 * log2 d), so P is as large as the field allows. Divisors d ≥ 2^(k−1) give −[a < 0]: one
 * comparison. By a secret: restoring long division, one comparison and one multiplication per
 * quotient bit (k sequential comparisons; batched over the whole vector).
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
    Comparison.requireField(b, k, kappa, "division of " + k + "-bit values by " + d);
    if (k <= 63 && d >= 1L << (k - 1)) {
      // |a| <= d, so ⌊a/d⌋ is −1 for negative a and 0 otherwise
      return b.negate(Comparison.lessThanZero(b, a, k, kappa));
    }
    int logD = 64 - Long.numberOfLeadingZeros(d - 1); // ⌈log2 d⌉, below k − 1 here
    int room = b.fieldBits() - kappa - 2; // the most bits a truncated value may have
    int precision = k + logD; // enough for a remainder in [0, 2d)
    while (precision > 1 && k + multiplier(d, precision).bitLength() > room) {
      precision--;
    }
    if (precision < k && precision <= logD + 1) {
      // the remainder would be no shorter than a: the field cannot hold even one step
      int needed = k + multiplier(d, k + logD).bitLength();
      Comparison.requireField(b, needed, kappa, "division of " + k + "-bit values by " + d);
    }
    SecretVector q0 = approximate(b, a, d, k, precision, kappa);
    SecretVector remainder = b.sub(a, b.mul(q0, d));
    if (precision < k) {
      // the remainder lies in (−X·d, (X + 1)·d) with X = 2^(k−1−P) >= 1: within 2^(k−P+logD)
      int remainderBits = logD + 1 + k - precision;
      return b.add(q0, byConstant(b, remainder, d, remainderBits, kappa));
    }
    int n = a.length();
    long[] ds = new long[n];
    java.util.Arrays.fill(ds, d);
    int bits = logD + 2; // holds [−2d, 2d)
    if (precision >= k + logD) {
      // remainder in [0, 2d): q = q0 + [remainder >= d]
      SecretVector small = Comparison.lessThan(b, remainder, b.known(ds), bits, kappa);
      return b.add(b.sub(q0, small), 1);
    }
    // remainder in (−d/2, 3d/2): q = q0 − [remainder < 0] + 1 − [remainder < d], in one batch
    SecretVector below =
        Comparison.lessThan(
            b,
            b.concat(remainder, remainder),
            b.concat(b.known(new long[n]), b.known(ds)),
            bits,
            kappa);
    SecretVector correction = b.add(b.slice(below, 0, n), b.slice(below, n, 2 * n));
    return b.add(b.sub(q0, correction), 1);
  }

  /** M = ⌈2^P / d⌉. */
  private static BigInteger multiplier(long d, int precision) {
    BigInteger divisor = BigInteger.valueOf(d);
    return BigInteger.ONE
        .shiftLeft(precision)
        .add(divisor)
        .subtract(BigInteger.ONE)
        .divide(divisor);
  }

  /** ⌊a · ⌈2^P/d⌉ / 2^P⌋, within 2^(k−1−P) + 1 of a/d. */
  private static SecretVector approximate(
      Numeric b, SecretVector a, long d, int k, int precision, int kappa) {
    BigInteger multiplier = multiplier(d, precision);
    // |a·M| < 2^(k−1)·2^bits(M): a truncation of k + bits(M) bits, more than P
    int productBits = k + multiplier.bitLength();
    return Comparison.truncate(b, b.mul(a, multiplier), productBits, precision, kappa);
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
