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

  /** Opens c = v + r' + 2^m·r'' (a step that later steps follow). */
  Step<BigInteger[]> open(Numeric b, SecretVector v) {
    SecretVector masked = b.add(b.add(v, rLow), b.mul(rHigh, BigInteger.ONE.shiftLeft(m)));
    return b.par(s -> s.openBig(masked));
  }

  /** a + 2^(k−1), in [0, 2^k) for k-bit signed a. */
  static SecretVector offset(Numeric b, SecretVector a, int k) {
    return b.add(a, Comparison.constant(b, a.length(), k - 1));
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

  /** (c − offset) mod 2^m for every opened c. */
  static BigInteger[] lowBits(BigInteger[] c, BigInteger offset, int m) {
    BigInteger mask = BigInteger.ONE.shiftLeft(m).subtract(BigInteger.ONE);
    BigInteger[] low = new BigInteger[c.length];
    for (int j = 0; j < c.length; j++) {
      low[j] = c[j].subtract(offset).and(mask);
    }
    return low;
  }
}
