package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.StagedProtocol;
import java.math.BigInteger;

/**
 * Random bits by the square-root trick: a random [r], open s = r², and with the public c = ±1/r, b
 * = (c·r + 1) / 2 is 0 or 1, each with probability 1/2, since r and −r are equally likely and c
 * depends on s alone. Elements with s = 0 (probability 1/p each) are drawn again. Rounds: one
 * multiplication and one opening (plus one when random elements are dealt).
 *
 * <p>Invariant: every party derives c from s alike. For p ≡ 3 mod 4 (2^61 − 1, 2^127 − 1) c =
 * s^(−(p+1)/4) in one exponentiation; for any other odd prime c is the inverse of {@link
 * Field#sqrt}'s canonical root (Tonelli–Shanks on {@code BigPrimeField}), the slow path of a slow
 * field.
 */
final class BgwRandomBits extends StagedProtocol {

  private final BgwSuite suite;
  private final Field field;
  private final int m;
  private Shares r;
  private long[] bits;
  private int[] retry; // positions whose s was zero
  private BgwRandomBits again;

  BgwRandomBits(BgwSuite suite, int m) {
    this.suite = suite;
    this.field = suite.field();
    this.m = m;
    begin(suite.random(m));
  }

  @Override
  protected RoundProtocol next(RoundProtocol finished) {
    if (again != null && finished == again) {
      Shares more = again.shares();
      int words = field.words();
      for (int i = 0; i < retry.length; i++) {
        System.arraycopy(more.share, i * words, bits, retry[i] * words, words);
      }
      return null;
    }
    if (r == null) {
      r = finished.shares();
      return suite.multiply(r, r);
    }
    if (bits == null && !(finished instanceof BgwOpen)) {
      return suite.open(finished.shares(), -1);
    }
    bits = toBits(finished.opened());
    if (retry.length > 0) {
      again = new BgwRandomBits(suite, retry.length);
      return again;
    }
    return null;
  }

  private long[] toBits(long[] squares) {
    int words = field.words();
    BigInteger p = field.modulus();
    boolean threeModFour = p.testBit(0) && p.testBit(1);
    BigInteger exponent =
        threeModFour
            ? p.subtract(BigInteger.ONE).subtract(p.add(BigInteger.ONE).shiftRight(2))
            : null;
    long[] half = field.alloc(1);
    field.encode(p.add(BigInteger.ONE).shiftRight(1), half, 0);
    long[] one = field.alloc(1);
    field.encode(1, one, 0);
    long[] c = field.alloc(1);
    long[] out = field.alloc(m);
    int zeros = 0;
    int[] zeroAt = new int[0];
    for (int i = 0; i < m; i++) {
      if (isZero(squares, i, words)) {
        zeroAt = java.util.Arrays.copyOf(zeroAt, zeros + 1);
        zeroAt[zeros++] = i;
        continue;
      }
      inverseRoot(squares, i, exponent, c);
      field.mul(r.share, i, c, 0, out, i, 1);
    }
    field.addScalar(out, 0, one, 0, out, 0, m);
    field.scale(out, 0, half, 0, out, 0, m);
    retry = zeroAt;
    return out;
  }

  /** c = ±1/√s, the same at every party: one exponentiation when p ≡ 3 mod 4. */
  private void inverseRoot(long[] squares, int i, BigInteger exponent, long[] c) {
    if (exponent != null) {
      field.pow(squares, i, exponent, c, 0);
      return;
    }
    if (!field.sqrt(squares, i, c, 0)) { // r² is a square: only a faulty opening gets here
      throw new IllegalStateException("BGW random bits: the opened square r² has no square root");
    }
    field.inverse(c, 0, c, 0);
  }

  private static boolean isZero(long[] a, int i, int words) {
    for (int w = 0; w < words; w++) {
      if (a[i * words + w] != 0) {
        return false;
      }
    }
    return true;
  }

  @Override
  public Shares shares() {
    return new Shares(m, bits, null);
  }
}
