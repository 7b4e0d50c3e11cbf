package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import java.math.BigInteger;

/**
 * The masks all masked protocols share [CdH10]: c = v + r' + 2^m·r'' is opened, where r' is spelled
 * by m secret random bits and r'' is a random integer of {@code highBits} bits, so that c hides the
 * nonnegative v below 2^(m + highBits − κ) statistically (distance 2^−κ). Masks are drawn before
 * they are used, so that protocols with several openings draw all their randomness in the first
 * rounds.
 *
 * @param rBits the m random bits of r', bit-major
 * @param rLow r' itself
 * @param rHigh r''
 * @param m the number of bits of r'
 */
record Masking(SecretVector rBits, SecretVector rLow, SecretVector rHigh, int m) {

  /** Masks for n values: m random bits and an r'' of {@code highBits} bits each. */
  static Masking draw(Numeric b, int n, int m, int highBits) {
    SecretVector rBits = Bits.random(b, n, m);
    SecretVector rLow = Bits.compose(b, rBits, n, 0, m);
    SecretVector rHigh = randomHigh(b, n, m + highBits, highBits);
    return new Masking(rBits, rLow, rHigh, m);
  }

  /**
   * Opens c = v + r' + 2^m·r'' (a step that later steps follow) and yields c mod 2^m, ⌈m/64⌉ words
   * per element (see {@link Numeric#openLowBits}): c is nonnegative and below p, so its low bits
   * are those of its representative.
   */
  Step<long[]> open(Numeric b, SecretVector v) {
    SecretVector masked = b.add(b.add(v, rLow), b.mul(rHigh, BigInteger.ONE.shiftLeft(m)));
    return b.par(s -> s.openLowBits(masked, m));
  }

  /** a + 2^(k−1), in [0, 2^k) for k-bit signed a. */
  static SecretVector offset(Numeric b, SecretVector a, int k) {
    if (k - 1 < 63) {
      return b.add(a, 1L << (k - 1));
    }
    return b.add(a, Comparison.constant(b, a.length(), k - 1));
  }

  /**
   * The public values c mod 2^m of {@link #open} as known field elements: from the words directly
   * below 2^63, through {@link BigInteger} only for wider masks (comparisons of 63 bits and more).
   */
  static SecretVector known(Numeric b, long[] low, int n, int m) {
    if (m < 64) {
      return b.known(low);
    }
    int per = (m + 63) / 64;
    BigInteger[] values = new BigInteger[n];
    for (int j = 0; j < n; j++) {
      BigInteger v = BigInteger.ZERO;
      for (int w = per - 1; w >= 0; w--) {
        v = v.shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low[j * per + w])));
      }
      values[j] = v;
    }
    return b.known(values);
  }

  /**
   * r'': a mask from {@link Numeric#randomMasks} (below parties · 2^highBits; one dealing round on
   * BGW instead of highBits random bits) when the field has room for that bound on top of the
   * {@code maskBits} = m + highBits bits of the whole mask; else composed from random bits. Either
   * way r' + 2^m·r'' contains a uniform integer of maskBits bits independent of the rest, which is
   * what the statistical argument needs.
   */
  private static SecretVector randomHigh(Numeric b, int n, int maskBits, int highBits) {
    if (dealtMasks(b, maskBits)) {
      return b.randomMasks(n, highBits);
    }
    return Bits.randomInteger(b, n, highBits);
  }

  /**
   * Whether masks of {@code maskBits} bits may come from {@link Numeric#randomMasks}: whether c
   * stays below p when r'' may reach parties · 2^highBits.
   */
  static boolean dealtMasks(Numeric b, int maskBits) {
    int partyBits = 32 - Integer.numberOfLeadingZeros(b.parties() - 1); // ⌈log2 parties⌉
    return maskBits + partyBits + 1 < b.fieldBits();
  }
}
