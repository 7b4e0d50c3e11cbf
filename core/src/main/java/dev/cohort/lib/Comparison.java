package dev.cohort.lib;

import static dev.cohort.api.Checks.require;

import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import java.math.BigInteger;

/**
 * Comparison and truncation of k-bit signed integers with statistical masking [CdH10] (Catrina & de
 * Hoogh 2010, "Improved primitives for secure multiparty integer computation").
 *
 * <p>Values lie in [−2^(k−1), 2^(k−1)). A masked value c = 2^(k−1) + a + 2^m·r'' + r' is opened,
 * where r' is built from m secret random bits and r'' is a random integer of k + κ − m bits, so c
 * hides a statistically (distance 2^−κ). The field must hold k + κ + 1 bits without wrapping;
 * smaller fields are refused with the size needed.
 *
 * <p>Costs for a batch of any size (all vectors: comparing two lists of 10^5 elements takes the
 * rounds of comparing one pair):
 *
 * <ul>
 *   <li>{@link #mod2m}: m random bits and a mask r'' of k + κ − m bits ({@link
 *       Numeric#randomMasks}: dealt on BGW, no multiplication; else as many random bits), one
 *       opening, ⌊m/2⌋ products of pairs of random bits (in the round of the opening) and 2⌈m/2⌉ −
 *       3 multiplications in ⌈log2 ⌈m/2⌉⌉ rounds after it (random bits: two more rounds, before the
 *       opening). At k = 33 (32-bit lessThan): 32 bits, 16 + 29 multiplications, where bits for r''
 *       and a tree over single bits took 73 bits and 61 multiplications.
 *   <li>{@link #truncate}: as mod2m, plus local work.
 *   <li>{@link #lessThanZero}: mod2m with m = k − 1.
 *   <li>{@link #lessThan}: lessThanZero of the (k+1)-bit difference.
 * </ul>
 */
public final class Comparison {

  /** The default statistical security parameter κ. */
  public static final int DEFAULT_KAPPA = 40;

  private Comparison() {}

  /**
   * Refuses a field too small for masking {@code bits}-bit values with κ bits; {@code subject}
   * names the operation and its declared size for the message.
   */
  static void requireField(Numeric b, int bits, int kappa, String subject) {
    require(bits >= 1, "bit length (%d) must be >= 1", bits);
    require(kappa >= 1, "statistical security κ (%d) must be >= 1", kappa);
    int needed = bits + kappa + 1;
    require(
        b.fieldBits() > needed,
        "%s with κ = %d needs a field of more than %d bits; this field has %d (use 2^127-1)",
        subject,
        kappa,
        needed,
        b.fieldBits());
  }

  /** a mod 2^m, in [0, 2^m), for k-bit signed a; 1 ≤ m < k. */
  public static SecretVector mod2m(Numeric b, SecretVector a, int k, int m, int kappa) {
    requireField(b, k, kappa, "mod 2^m of " + k + "-bit values");
    if (m < 1 || m >= k) {
      throw new IllegalArgumentException("m (" + m + ") must be in [1, k = " + k + ")");
    }
    int n = a.length();
    if (n == 0) {
      return a;
    }
    Masking mask = Masking.draw(b, n, m, k + kappa - m);
    SecretVector[] pairs = Bits.pairProducts(b, mask.rBits(), n, m);
    Step<SecretVector> result =
        mask.open(b, Masking.offset(b, a, k))
            .seq(
                (s, c) -> {
                  // m < k, so the offset 2^(k-1) vanishes mod 2^m
                  long[][] bits = Bits.publicBits(c, n, m, false);
                  SecretVector u = Bits.lessThanPublic(s, bits, mask.rBits(), pairs, n, m);
                  SecretVector aMod =
                      s.add(
                          s.sub(Masking.known(s, c, n, m), mask.rLow()),
                          s.mul(u, BigInteger.ONE.shiftLeft(m)));
                  return Deferred.of(aMod);
                });
    return b.vectorOf(result, n);
  }

  /** ⌊a / 2^m⌋ for k-bit signed a (rounding toward −∞); 1 ≤ m < k. */
  public static SecretVector truncate(Numeric b, SecretVector a, int k, int m, int kappa) {
    SecretVector low = mod2m(b, a, k, m, kappa);
    BigInteger inverse = BigInteger.ONE.shiftLeft(m).modInverse(b.modulus());
    return b.mul(b.sub(a, low), inverse);
  }

  /** [a < 0] (1 or 0) for k-bit signed a. */
  public static SecretVector lessThanZero(Numeric b, SecretVector a, int k, int kappa) {
    if (k == 1) {
      // a in {-1, 0}: [a < 0] = -a
      return b.negate(a);
    }
    return b.negate(truncate(b, a, k, k - 1, kappa));
  }

  /** [x < y] for k-bit signed x and y. */
  public static SecretVector lessThan(Numeric b, SecretVector x, SecretVector y, int k) {
    return lessThan(b, x, y, k, DEFAULT_KAPPA);
  }

  public static SecretVector lessThan(Numeric b, SecretVector x, SecretVector y, int k, int kappa) {
    requireField(b, k + 1, kappa, "comparison of " + k + "-bit values");
    return lessThanZero(b, b.sub(x, y), k + 1, kappa);
  }

  /** [x ≤ y] = 1 − [y < x]. */
  public static SecretVector lessOrEqual(Numeric b, SecretVector x, SecretVector y, int k) {
    return not(b, lessThan(b, y, x, k));
  }

  /** [x > y] = [y < x]. */
  public static SecretVector greaterThan(Numeric b, SecretVector x, SecretVector y, int k) {
    return lessThan(b, y, x, k);
  }

  /** [x ≥ y] = 1 − [x < y]. */
  public static SecretVector greaterOrEqual(Numeric b, SecretVector x, SecretVector y, int k) {
    return not(b, lessThan(b, x, y, k));
  }

  /** 1 − bit, elementwise. */
  public static SecretVector not(Numeric b, SecretVector bits) {
    return b.add(b.negate(bits), 1);
  }

  static SecretVector constant(Numeric b, int n, int power) {
    BigInteger[] values = new BigInteger[n];
    BigInteger v = BigInteger.ONE.shiftLeft(power);
    java.util.Arrays.fill(values, v);
    return b.known(values);
  }
}
