package dev.cohort.field;

/**
 * Arithmetic on 128-bit values held as two 64-bit limbs {@code lo + hi * 2^64}, for the Mersenne
 * prime {@code p = 2^127 - 1}: the carry of a word addition, the unsigned high product, the final
 * reduction of a lazy sum, the fused multiply-add, rotation, and sums of 43-bit limbs. The one home
 * of these helpers: {@link Mersenne127} and the fused SPDZ kernels both build on them.
 *
 * <p>Invariant: every method is static, allocation-free and writes its result to the caller's
 * array. Canonical inputs are below {@code p}, so a high word is below {@code 2^63}.
 *
 * <p>Java 17 has no unsigned multiply-high, so it is derived from {@link Math#multiplyHigh} (see
 * {@link #unsignedMultiplyHigh}). Carries between words use the branch-free carry-out formula of
 * {@link #carry}. Reduction uses {@code 2^127 ≡ 1 (mod p)}: the bits above 127 are added onto the
 * low 127 bits, and a result equal to {@code p} becomes zero.
 */
public final class Limbs127 {

  /** Low word of {@code p}: all 64 bits set. */
  public static final long P_LO = -1L;

  /** High word of {@code p}, and the mask of the low 63 bits of a high word. */
  public static final long P_HI = Long.MAX_VALUE;

  /** The low 43 bits: a 127-bit value is three limbs of 43, 43 and 41 bits. */
  static final long LIMB = (1L << 43) - 1;

  private Limbs127() {}

  /** The carry out of bit 63 of {@code s = x + y (+ carry in)}, as 0 or 1. */
  public static long carry(long x, long y, long s) {
    // Majority of x63, y63 and the carry into bit 63, which is x63 ^ y63 ^ s63.
    return ((x & y) | ((x | y) & ~s)) >>> 63;
  }

  /** The high 64 bits of the unsigned 128-bit product of {@code a} and {@code b}. */
  static long unsignedMultiplyHigh(long a, long b) {
    // multiplyHigh reads a negative operand as x - 2^64; add back the other operand for each.
    return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
  }

  /**
   * Writes {@code s mod p} for {@code s = s0 + s1 * 2^64 < 2^128 - 1} to {@code out[o, o + 2)}: the
   * canonical form of a sum kept lazily (below 2^128 − 1) by fused kernels elsewhere.
   */
  public static void reduce128(long s0, long s1, long[] out, int o) {
    // Fold bit 127 onto bit 0: r = (s & p) + (s >>> 127) <= p, because s < 2^128 - 1.
    long top = s1 >>> 63;
    long r0 = s0 + top;
    long r1 = (s1 & P_HI) + carry(s0, top, r0);
    if (r0 == P_LO && r1 == P_HI) { // r == p, rare
      r0 = 0;
      r1 = 0;
    }
    out[o] = r0;
    out[o + 1] = r1;
  }

  /**
   * Writes {@code (a * b + c) mod p} to {@code out[o, o + 2)} for canonical {@code a}, {@code b}
   * and {@code c}. The addend is free here: {@code a * b + c <= (p - 1) * p < 2^254}, the bound the
   * reduction needs anyway.
   */
  static void mulAdd(long a0, long a1, long b0, long b1, long c0, long c1, long[] out, int o) {
    mulAddFolded(a0, a1, b0, b1, c0, c1, out, o);
    reduce128(out[o], out[o + 1], out, o);
  }

  /**
   * As {@link #mulAdd}, but leaves the folded sum s ≡ a * b + c (mod p), s ≤ 2^128 − 2, without the
   * final reduction: a valid addend {@code c} for a second {@link #mulAdd}, which is how {@link
   * Mersenne127#combine} saves one reduction per pair of terms. Any {@code c} below 2^128 − 2^126
   * keeps the bound a * b + c < 2^254 that the columns rely on.
   */
  static void mulAddFolded(
      long a0, long a1, long b0, long b1, long c0, long c1, long[] out, int o) {
    // Partial products. a1, b1 < 2^63, so only terms with a0 or b0 need the unsigned fix-up.
    long lo00 = a0 * b0;
    long hi00 = unsignedMultiplyHigh(a0, b0);
    long lo01 = a0 * b1;
    long hi01 = Math.multiplyHigh(a0, b1) + ((a0 >> 63) & b1);
    long lo10 = a1 * b0;
    long hi10 = Math.multiplyHigh(a1, b0) + ((b0 >> 63) & a1);
    long lo11 = a1 * b1;
    long hi11 = Math.multiplyHigh(a1, b1);

    // Column 0: lo00 + c0.
    long w0 = lo00 + c0;
    long k = carry(lo00, c0, w0);
    // Column 1: hi00 + lo01 + lo10 + c1 + k; up to three carries out.
    long t = hi00 + lo01;
    long k1 = carry(hi00, lo01, t);
    long w1 = t + lo10;
    k1 += carry(t, lo10, w1);
    t = w1 + c1;
    k1 += carry(w1, c1, t);
    w1 = t + k;
    k1 += carry(t, k, w1);
    // Column 2: hi01 + hi10 + lo11 + k1. hi01, hi10 < 2^63, so their sum cannot carry.
    t = hi01 + hi10;
    long w2 = t + lo11;
    long k2 = carry(t, lo11, w2);
    t = w2 + k1;
    k2 += carry(w2, k1, t);
    w2 = t;
    // Column 3: the total is < 2^254, so w3 < 2^62 and nothing carries out.
    long w3 = hi11 + k2;

    // x = L + H * 2^127 ≡ L + H with L = x mod 2^127 and H = x >>> 127 < 2^127.
    long h0 = (w1 >>> 63) | (w2 << 1);
    long h1 = (w2 >>> 63) | (w3 << 1);
    long l1 = w1 & P_HI;
    long s0 = w0 + h0;
    long s1 = l1 + h1 + carry(w0, h0, s0); // l1, h1 < 2^63: no overflow, s <= 2^128 - 2
    out[o] = s0;
    out[o + 1] = s1;
  }

  /**
   * Writes {@code x * 2^s mod p} for canonical x = lo + hi * 2^64 and 0 ≤ s < 127: x rotated left
   * by s within 127 bits. The result is canonical (only p itself is all ones).
   */
  static void rotateLeft(long lo, long hi, int s, long[] out, int o) {
    if (s == 0) {
      out[o] = lo;
      out[o + 1] = hi;
      return;
    }
    long l0; // (x << s) mod 2^127
    long l1;
    if (s < 64) {
      l0 = lo << s;
      l1 = ((hi << s) | (lo >>> (64 - s))) & P_HI;
    } else {
      l0 = 0;
      l1 = (lo << (s - 64)) & P_HI;
    }
    int r = 127 - s; // x >>> (127 - s), 1 ≤ r ≤ 126
    long r0;
    long r1;
    if (r < 64) {
      r0 = (lo >>> r) | (hi << (64 - r));
      r1 = hi >>> r;
    } else {
      r0 = hi >>> (r - 64);
      r1 = 0;
    }
    out[o] = l0 | r0;
    out[o + 1] = l1 | r1;
  }

  /** Adds the 127-bit value v0 + v1·2^64 to the limb sums at {@code sums[k, k + 3)}. */
  static void addLimbs(long v0, long v1, long[] sums, int k) {
    sums[k] += v0 & LIMB;
    sums[k + 1] += ((v0 >>> 43) | (v1 << 21)) & LIMB;
    sums[k + 2] += v1 >>> 22;
  }

  /**
   * Adds c·x for canonical x and |c| < 2^31 to the limb sums: |c|·x < 2^158 folds to L + H with L <
   * 2^127 and H < 2^32, and both are negated (bits inverted) for c < 0.
   */
  static void addSmallProduct(long x0, long x1, long c, long[] sums, int k) {
    long negate = c >> 63;
    long u = (c ^ negate) - negate;
    long lo = x0 * u;
    long hi0 = Math.multiplyHigh(x0, u) + ((x0 >> 63) & u); // < 2^31
    long mid = x1 * u;
    long w1 = hi0 + mid;
    long w2 = Math.multiplyHigh(x1, u) + carry(hi0, mid, w1); // < 2^31
    long h = (w1 >>> 63) | (w2 << 1);
    addLimbs(lo ^ negate, (w1 & P_HI) ^ (negate & P_HI), sums, k);
    addLimbs(h ^ negate, negate & P_HI, sums, k);
  }

  /** Writes the limb sums at {@code sums[k, k + 3)} reduced mod p to {@code out[o, o + 2)}. */
  static void foldLimbs(long[] sums, int k, long[] out, int o) {
    long s0 = sums[k];
    long s1 = sums[k + 1];
    long s2 = sums[k + 2];
    // S = s0 + s1·2^43 + s2·2^86 = w0 + w1·2^64 + w2·2^128, each s below 2^63
    long a0 = s1 << 43;
    long w0 = s0 + a0;
    long k0 = carry(s0, a0, w0);
    long a1 = s1 >>> 21;
    long b1 = s2 << 22;
    long t = a1 + b1;
    long k1 = carry(a1, b1, t);
    long w1 = t + k0;
    k1 += carry(t, k0, w1);
    long w2 = (s2 >>> 42) + k1; // < 2^22
    // S ≡ (S mod 2^127) + (S >>> 127), below 2^127 + 2^24 < 2^128 − 1
    long h = (w1 >>> 63) | (w2 << 1);
    long r0 = w0 + h;
    reduce128(r0, (w1 & P_HI) + carry(w0, h, r0), out, o);
  }
}
