package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import java.math.BigInteger;

/**
 * The opening step all masked protocols share [CdH10]: open c = 2^(k−1) + a + r' + 2^m·r'' where r'
 * is spelled by m secret random bits and r'' is a random integer of {@code highBits} bits, so that
 * c, nonnegative and below 2^(k + κ + 1), hides the k-bit signed a statistically.
 *
 * @param rBits the m random bits of r', bit-major
 * @param rLow r' itself
 * @param opened c, once opened (a step that later steps follow)
 */
record Masking(SecretVector rBits, SecretVector rLow, Step<BigInteger[]> opened) {

  static Masking open(Numeric b, SecretVector a, int k, int m, int highBits) {
    int n = a.length();
    SecretVector rBits = Bits.random(b, n, m);
    SecretVector rLow = Bits.compose(b, rBits, n, 0, m);
    SecretVector rHigh = Bits.randomInteger(b, n, highBits);
    SecretVector masked =
        b.add(
            b.add(a, rLow),
            b.add(b.mul(rHigh, BigInteger.ONE.shiftLeft(m)), Comparison.constant(b, n, k - 1)));
    return new Masking(rBits, rLow, b.par(s -> s.openBig(masked)));
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
