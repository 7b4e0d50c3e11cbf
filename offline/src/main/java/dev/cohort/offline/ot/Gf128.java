package dev.cohort.offline.ot;

/**
 * Arithmetic in GF(2^128) = GF(2)[X] / (X^128 + X^7 + X^2 + X + 1), the field of the KOS
 * correlation check. An element is two longs: bit i of {@code lo} is the coefficient of X^i, bit i
 * of {@code hi} that of X^(64 + i).
 *
 * <p>Java 17 has no carry-less multiply intrinsic, so the check's sum Σ_j χ_j·t_j over all rows is
 * never computed one product at a time. Writing t_j = Σ_c t_j[c]·X^c over its 128 bits (the columns
 * c of the OT extension matrix), the sum is Σ_c X^c·S_c with S_c = XOR of the χ_j whose row has bit
 * c set: {@link #columnSums} gets every S_c with the method of the four Russians (4 rows at a time,
 * a 16-entry table of their χ combinations shared by all columns), and {@link #shiftedSum} adds the
 * X^c·S_c unreduced in 256 bits and reduces once.
 */
final class Gf128 {

  private Gf128() {}

  /** The product of {@code (aLo, aHi)} and {@code (bLo, bHi)} into {@code out[offset, +2)}. */
  static void multiply(long aLo, long aHi, long bLo, long bHi, long[] out, int offset) {
    long w0 = 0;
    long w1 = 0;
    long w2 = 0;
    long w3 = 0;
    for (int i = 0; i < 64; i++) {
      long lo = -(bLo >>> i & 1); // all ones when bit i of b is set
      long hi = -(bHi >>> i & 1);
      long aLoShifted = i == 0 ? 0 : aLo >>> (64 - i);
      long aHiShifted = i == 0 ? 0 : aHi >>> (64 - i);
      // a·X^i spans words (aLo << i, aHi << i | aLo >>> (64 − i), aHi >>> (64 − i)).
      long s0 = aLo << i;
      long s1 = aHi << i | aLoShifted;
      long s2 = aHiShifted;
      w0 ^= s0 & lo;
      w1 ^= (s1 & lo) ^ (s0 & hi);
      w2 ^= (s2 & lo) ^ (s1 & hi);
      w3 ^= s2 & hi;
    }
    reduce(w0, w1, w2, w3, out, offset);
  }

  /** Reduces the 256-bit polynomial (w0, w1, w2, w3) modulo the field polynomial. */
  static void reduce(long w0, long w1, long w2, long w3, long[] out, int offset) {
    // X^128 = X^7 + X^2 + X + 1: fold w3 (at X^192) into w1, w2, then w2 (at X^128) into w0, w1.
    w1 ^= w3 ^ (w3 << 1) ^ (w3 << 2) ^ (w3 << 7);
    w2 ^= (w3 >>> 63) ^ (w3 >>> 62) ^ (w3 >>> 57);
    w0 ^= w2 ^ (w2 << 1) ^ (w2 << 2) ^ (w2 << 7);
    w1 ^= (w2 >>> 63) ^ (w2 >>> 62) ^ (w2 >>> 57);
    out[offset] = w0;
    out[offset + 1] = w1;
  }

  /** Σ_{c < 128} X^c·S_c mod the field polynomial, with S_c at {@code sums[2c, 2c + 2)}. */
  static void shiftedSum(long[] sums, long[] out, int offset) {
    long w0 = sums[0];
    long w1 = sums[1];
    long w2 = 0;
    long w3 = 0;
    for (int c = 1; c < 64; c++) {
      long lo = sums[2 * c];
      long hi = sums[2 * c + 1];
      w0 ^= lo << c;
      w1 ^= hi << c | lo >>> (64 - c);
      w2 ^= hi >>> (64 - c);
    }
    for (int c = 64; c < 128; c++) { // X^c = X^64 · X^(c − 64)
      int s = c - 64;
      long lo = sums[2 * c];
      long hi = sums[2 * c + 1];
      w1 ^= lo << s;
      w2 ^= s == 0 ? hi : hi << s | lo >>> (64 - s);
      w3 ^= s == 0 ? 0 : hi >>> (64 - s);
    }
    reduce(w0, w1, w2, w3, out, offset);
  }
}
