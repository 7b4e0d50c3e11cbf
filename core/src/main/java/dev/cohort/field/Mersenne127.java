package dev.cohort.field;

import dev.cohort.random.Prg;
import java.math.BigInteger;

/**
 * The prime field of the Mersenne prime {@code p = 2^127 - 1}, two words per element.
 *
 * <p>Invariant: element {@code i} is {@code lo + hi * 2^64} with {@code lo = x[2i]}, {@code hi =
 * x[2i + 1]}, and the value lies in {@code [0, p)}; in particular {@code hi < 2^63}, so the high
 * word is never negative.
 *
 * <p>Kernels work on the two words directly, without {@code BigInteger}. Multiplication is the
 * 256-bit schoolbook product of the 64-bit limbs, then reduction with {@code 2^127 ≡ 1 (mod p)}:
 * the bits above 127 are added onto the low 127 bits, twice, and a result equal to {@code p}
 * becomes zero. Java 17 has no unsigned multiply-high, so it is derived from {@link
 * Math#multiplyHigh} (see {@link #unsignedMultiplyHigh}). Carries between words use the branch-free
 * carry-out formula of {@link #carry}.
 */
public final class Mersenne127 implements Field {

  /** Low word of {@code p}: all 64 bits set. */
  private static final long P_LO = -1L;

  /** High word of {@code p}, and the mask of the low 63 bits of a high word. */
  private static final long P_HI = Long.MAX_VALUE;

  private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
  private static final BigInteger P_MINUS_2 = MODULUS.subtract(BigInteger.TWO);
  private static final BigInteger SQRT_EXPONENT = MODULUS.add(BigInteger.ONE).shiftRight(2);
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  /** High word of {@code (p + 1) / 2 = 2^126}, the smallest element with a negative decoding. */
  private static final long HALF_HI = 1L << 62;

  Mersenne127() {}

  @Override
  public String name() {
    return "m127";
  }

  @Override
  public BigInteger modulus() {
    return MODULUS;
  }

  @Override
  public int bitLength() {
    return 127;
  }

  @Override
  public int words() {
    return 2;
  }

  // ---- word-level helpers -------------------------------------------------------------------

  /** The carry out of bit 63 of {@code s = x + y (+ carry in)}, as 0 or 1. */
  private static long carry(long x, long y, long s) {
    // Majority of x63, y63 and the carry into bit 63, which is x63 ^ y63 ^ s63.
    return ((x & y) | ((x | y) & ~s)) >>> 63;
  }

  /** The high 64 bits of the unsigned 128-bit product of {@code a} and {@code b}. */
  private static long unsignedMultiplyHigh(long a, long b) {
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
  private static void mulAdd(
      long a0, long a1, long b0, long b1, long c0, long c1, long[] out, int o) {
    mulAddFolded(a0, a1, b0, b1, c0, c1, out, o);
    reduce128(out[o], out[o + 1], out, o);
  }

  /**
   * As {@link #mulAdd}, but leaves the folded sum s ≡ a * b + c (mod p), s ≤ 2^128 − 2, without the
   * final reduction: a valid addend {@code c} for a second {@link #mulAdd}, which is how {@link
   * #combine} saves one reduction per pair of terms. Any {@code c} below 2^128 − 2^126 keeps the
   * bound a * b + c < 2^254 that the columns rely on.
   */
  private static void mulAddFolded(
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

  // ---- kernels -------------------------------------------------------------------------------

  @Override
  public void add(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      int ib = 2 * (bo + i);
      long a0 = a[ia];
      long b0 = b[ib];
      long s0 = a0 + b0;
      long s1 = a[ia + 1] + b[ib + 1] + carry(a0, b0, s0); // < 2^64, and s <= 2p < 2^128 - 1
      reduce128(s0, s1, out, 2 * (oo + i));
    }
  }

  @Override
  public void sub(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      int ib = 2 * (bo + i);
      long a0 = a[ia];
      long b0 = b[ib];
      long d0 = a0 - b0;
      // The borrow out of the low word, branch-free: a branch here mispredicts on random shares
      // (JFR: 9% of the CPU time of a BGW equality test went to Long.compareUnsigned).
      long borrow = ((~a0 & b0) | (~(a0 ^ b0) & d0)) >>> 63;
      long d1 = a[ia + 1] - b[ib + 1] - borrow;
      // d is negative exactly when d1 is (both high words are < 2^63); then add p, branch-free.
      long mask = d1 >> 63;
      long r0 = d0 + (P_LO & mask);
      long r1 = d1 + (P_HI & mask) + carry(d0, P_LO & mask, r0);
      int io = 2 * (oo + i);
      out[io] = r0;
      out[io + 1] = r1;
    }
  }

  @Override
  public void mul(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = mulSigns(a, ao, b, bo, out, oo, n); i < n; i++) {
      int ia = 2 * (ao + i);
      int ib = 2 * (bo + i);
      mulAdd(a[ia], a[ia + 1], b[ib], b[ib + 1], 0, 0, out, 2 * (oo + i));
    }
  }

  /**
   * {@link #mul} by coefficients in {0, 1, −1} (the public coefficients with which the library's
   * bitwise protocols scale secret bits: c xor r = c + (1 − 2c)·r and the like) as a select,
   * branch-free in the pattern, which follows public bits that look random. Stops at the first
   * other coefficient and returns how many elements it wrote, so that the check costs one pass
   * together with the select, not one before it (a vector of shares stops at element 0). In a BGW
   * 32-bit comparison the scaling of bits by such vectors was 13% of the CPU time (JFR) with full
   * multiplications, and a separate scan before the select was 4–7%.
   */
  private static int mulSigns(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      int ib = 2 * (bo + i);
      long lo = b[ib];
      long hi = b[ib + 1];
      boolean zeroOrOne = (hi | (lo >>> 1)) == 0;
      boolean minusOne = hi == P_HI && lo == P_LO - 1;
      if (!zeroOrOne && !minusOne) {
        return i;
      }
      int ia = 2 * (ao + i);
      long a0 = a[ia];
      long a1 = a[ia + 1];
      long keep = -(lo & 1); // 1 is odd; 0 and p − 1 are even
      long flip = -(hi >>> 62); // only p − 1 has a high word
      long any = a0 | a1;
      long nonzero = (any | -any) >> 63; // all ones unless a = 0, whose negation is 0, not p
      int io = 2 * (oo + i);
      out[io] = (a0 & keep) | ((P_LO - a0) & flip & nonzero);
      out[io + 1] = (a1 & keep) | ((P_HI - a1) & flip & nonzero);
    }
    return n;
  }

  @Override
  public void negate(long[] a, int ao, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      long a0 = a[ia];
      long a1 = a[ia + 1];
      boolean zero = (a0 | a1) == 0;
      // p - a needs no borrow: the low word of p has every bit set.
      int io = 2 * (oo + i);
      out[io] = zero ? 0 : P_LO - a0;
      out[io + 1] = zero ? 0 : P_HI - a1;
    }
  }

  /** −x = p − x is x with its 127 bits inverted, for canonical x ≠ 0; zero stays zero. */
  @Override
  public void negateWhere(
      long[] bits, int from, boolean flip, long[] a, int ao, long[] out, int oo, int n) {
    long invert = flip ? 1 : 0;
    for (int i = 0; i < n; i++) {
      int at = from + i;
      int ia = 2 * (ao + i);
      long lo = a[ia];
      long hi = a[ia + 1];
      long nonZero = (lo | hi | -(lo | hi)) >> 63; // all ones unless x = 0 (hi < 2^63)
      long mask = -(((bits[at >>> 6] >>> (at & 63)) & 1) ^ invert) & nonZero;
      int io = 2 * (oo + i);
      out[io] = lo ^ mask;
      out[io + 1] = hi ^ (mask & P_HI);
    }
  }

  @Override
  public void scale(long[] a, int ao, long[] c, int co, long[] out, int oo, int n) {
    long k0 = c[2 * co];
    long k1 = c[2 * co + 1];
    if (Long.bitCount(k0) + Long.bitCount(k1) == 1) {
      // 2^s: a rotation of the 127 bits, as 2^127 ≡ 1 (composing bits, scaling by 2^m)
      int shift = k0 != 0 ? Long.numberOfTrailingZeros(k0) : 64 + Long.numberOfTrailingZeros(k1);
      for (int i = 0; i < n; i++) {
        int ia = 2 * (ao + i);
        rotateLeft(a[ia], a[ia + 1], shift, out, 2 * (oo + i));
      }
      return;
    }
    Small small = n >= SMALL_MIN_BATCH ? Small.of(k0, k1) : null;
    long u = small == null ? 0 : small.u;
    int shift = small == null ? 0 : small.shift;
    long negate = small == null ? 0 : small.negate;
    if (small != null) {
      for (int i = 0; i < n; i++) {
        int ia = 2 * (ao + i);
        mulSmallAdd(a[ia], a[ia + 1], u, shift, negate, 0, 0, out, 2 * (oo + i));
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      mulAdd(a[ia], a[ia + 1], k0, k1, 0, 0, out, 2 * (oo + i));
    }
  }

  /** Batches from this size on classify a constant factor (see {@link Small}). */
  private static final int SMALL_MIN_BATCH = 16;

  /**
   * A constant c = ±u·2^s (mod p) with u below 2^62: multiplying by it takes two 64-bit products
   * where a full one takes eight, and a rotation. The constants of BGW at n = 3 are of this form
   * except 1/3 and 2/3: the Lagrange coefficients 3, −3, 2, −1, 1/2 = 2^126 and 3/2 = 3·2^126.
   * Classifying costs a pass over the bits of c (below a microsecond), so only batches of {@link
   * #SMALL_MIN_BATCH} or more try it.
   *
   * @param negate all ones when c = −u·2^s, else zero
   */
  private record Small(long u, int shift, long negate) {

    static Small of(long c0, long c1) {
      Small plus = rotated(c0, c1, 0);
      if (plus != null) {
        return plus;
      }
      boolean zero = (c0 | c1) == 0;
      return zero ? null : rotated(P_LO - c0, P_HI - c1, -1L);
    }

    /** c = u·2^s, u odd (or zero), for a run of set bits starting at s, or null. */
    private static Small rotated(long c0, long c1, long negate) {
      if (c1 == 0 && (c0 >>> 62) == 0) {
        int s = c0 == 0 ? 0 : Long.numberOfTrailingZeros(c0);
        return new Small(c0 >>> s, s, negate);
      }
      long[] r = new long[2];
      for (int s = 1; s < 127; s++) {
        // u = c·2^(−s) is a rotation right by s; it can only be small when bit s starts a run
        if (bit(c0, c1, s) && !bit(c0, c1, s - 1)) {
          rotateLeft(c0, c1, 127 - s, r, 0);
          if (r[1] == 0 && (r[0] >>> 62) == 0) {
            return new Small(r[0], s, negate);
          }
        }
      }
      return null;
    }

    private static boolean bit(long c0, long c1, int i) {
      return ((i < 64 ? c0 >>> i : c1 >>> (i - 64)) & 1) != 0;
    }
  }

  /**
   * Writes {@code (x * c + y) mod p} to {@code out[o, o + 2)} for canonical x and y and a constant
   * c = ±u·2^shift of the form {@link Small}. With u = 1 (BGW's −1, 2, −2, 1/2 at n = 3) there is
   * nothing to multiply: rotating and negating cost about half of a product by u.
   */
  private static void mulSmallAdd(
      long x0, long x1, long u, int shift, long negate, long y0, long y1, long[] out, int o) {
    if (u == 1) {
      rotateNegateAdd(x0, x1, shift, negate, y0, y1, out, o);
    } else {
      mulOddAdd(x0, x1, u, shift, negate, y0, y1, out, o);
    }
  }

  /** Writes {@code (±(x * 2^shift) + y) mod p} for canonical x and y (negate: all ones for −). */
  private static void rotateNegateAdd(
      long x0, long x1, int shift, long negate, long y0, long y1, long[] out, int o) {
    if (shift != 0) { // as rotateLeft
      int back = 127 - shift;
      long l0 = shift < 64 ? x0 << shift : 0;
      long l1 = (shift < 64 ? (x1 << shift) | (x0 >>> (64 - shift)) : x0 << (shift - 64)) & P_HI;
      long b0 = back < 64 ? (x0 >>> back) | (x1 << (64 - back)) : x1 >>> (back - 64);
      long b1 = back < 64 ? x1 >>> back : 0;
      x0 = l0 | b0;
      x1 = l1 | b1;
    }
    long any = x0 | x1;
    long flip = negate & ((any | -any) >> 63); // −0 is 0
    x0 ^= flip; // p − x flips the 127 bits of x
    x1 ^= flip & P_HI;
    long t0 = x0 + y0;
    reduce128(t0, x1 + y1 + carry(x0, y0, t0), out, o); // x + y < 2p < 2^128 - 1
  }

  /**
   * {@link #mulSmallAdd} for u > 1: x is rotated and negated first (exact on canonical values),
   * then y rides along in the product's columns, so that one fold and one reduction finish. Kept
   * below C2's inlining limit of 325 bytes of bytecode: a larger version was called, not inlined,
   * per element.
   */
  private static void mulOddAdd(
      long x0, long x1, long u, int shift, long negate, long y0, long y1, long[] out, int o) {
    if (shift != 0) { // as rotateLeft
      int back = 127 - shift;
      long l0 = shift < 64 ? x0 << shift : 0;
      long l1 = (shift < 64 ? (x1 << shift) | (x0 >>> (64 - shift)) : x0 << (shift - 64)) & P_HI;
      long b0 = back < 64 ? (x0 >>> back) | (x1 << (64 - back)) : x1 >>> (back - 64);
      long b1 = back < 64 ? x1 >>> back : 0;
      x0 = l0 | b0;
      x1 = l1 | b1;
    }
    // −x = p − x, except that −0 is 0
    long any = x0 | x1;
    long flip = negate & ((any | -any) >> 63);
    x0 ^= flip; // p − x flips the 127 bits of x
    x1 ^= flip & P_HI;
    // x·u + y = t0 + w1·2^64 + w2·2^128 < 2^189 + 2^127; u < 2^62: only x0 needs the fix-up
    long lo0 = x0 * u;
    long hi0 = Math.multiplyHigh(x0, u) + ((x0 >> 63) & u); // < 2^62
    long hi1 = Math.multiplyHigh(x1, u); // < 2^61
    long t0 = lo0 + y0;
    long ky = carry(lo0, y0, t0) + y1; // ≤ 2^63
    long w1 = hi0 + x1 * u;
    long w2 = hi1 + carry(hi0, x1 * u, w1);
    long w = w1 + ky;
    w2 += carry(w1, ky, w);
    // ≡ (mod 2^127) + (>>> 127), below 2^127 + 2^63 < 2^128 − 1
    long h = (w >>> 63) | (w2 << 1);
    long s0 = t0 + h;
    reduce128(s0, (w & P_HI) + carry(t0, h, s0), out, o);
  }

  /**
   * Writes {@code x * 2^s mod p} for canonical x = lo + hi * 2^64 and 0 ≤ s < 127: x rotated left
   * by s within 127 bits. The result is canonical (only p itself is all ones).
   */
  private static void rotateLeft(long lo, long hi, int s, long[] out, int o) {
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

  /**
   * Two terms (t = 1 in BGW's dealing: the secret and one seeded share) in one pass with one
   * reduction: the first product is only folded and rides along as the addend of the second.
   * Coefficients that sum to one (a Lagrange basis) take one product, as {@code a + c1·(b − a)}: 23
   * ns per element instead of 35 (2048 elements, a loaded 2-core machine; a product alone is 18
   * ns). Coefficients of the form {@link Small} (BGW's at n = 3, weights folded in) take none: see
   * {@link #combineSmall}.
   */
  @Override
  public void combine(long[][] terms, long[] c, long[] out, int oo, int n, boolean accumulate) {
    if (terms.length != 2) {
      Field.super.combine(terms, c, out, oo, n, accumulate);
      return;
    }
    long[] a = terms[0];
    long[] b = terms[1];
    long x0 = c[0];
    long x1 = c[1];
    long y0 = c[2];
    long y1 = c[3];
    if (sumsToOne(x0, x1, y0, y1)) {
      combineAffine(a, b, y0, y1, out, oo, n, accumulate);
      return;
    }
    Small sx = n >= SMALL_MIN_BATCH ? Small.of(x0, x1) : null;
    Small sy = n >= SMALL_MIN_BATCH ? Small.of(y0, y1) : null;
    if (sx != null || sy != null) {
      combineSmall(a, x0, x1, sx, b, y0, y1, sy, out, oo, n, accumulate);
      return;
    }
    for (int i = 0; i < n; i++) {
      int io = 2 * (oo + i);
      long acc0 = accumulate ? out[io] : 0;
      long acc1 = accumulate ? out[io + 1] : 0;
      mulAddFolded(a[2 * i], a[2 * i + 1], x0, x1, acc0, acc1, out, io);
      mulAdd(b[2 * i], b[2 * i + 1], y0, y1, out[io], out[io + 1], out, io);
    }
  }

  /**
   * {@link #combine} of two terms when at least one coefficient is of the form {@link Small} (null
   * where it is not): as BGW's dealing coefficients over 2^127 − 1 once the seeded shares are
   * scaled (see ShamirSharing in suite-bgw).
   */
  private static void combineSmall(
      long[] a,
      long x0,
      long x1,
      Small sx,
      long[] b,
      long y0,
      long y1,
      Small sy,
      long[] out,
      int oo,
      int n,
      boolean accumulate) {
    for (int i = 0; i < n; i++) {
      int io = 2 * (oo + i);
      long acc0 = accumulate ? out[io] : 0;
      long acc1 = accumulate ? out[io + 1] : 0;
      if (sx != null) {
        mulSmallAdd(a[2 * i], a[2 * i + 1], sx.u, sx.shift, sx.negate, acc0, acc1, out, io);
      } else {
        mulAdd(a[2 * i], a[2 * i + 1], x0, x1, acc0, acc1, out, io);
      }
      if (sy != null) {
        mulSmallAdd(
            b[2 * i], b[2 * i + 1], sy.u, sy.shift, sy.negate, out[io], out[io + 1], out, io);
      } else {
        mulAdd(b[2 * i], b[2 * i + 1], y0, y1, out[io], out[io + 1], out, io);
      }
    }
  }

  /** Whether canonical x + y ≡ 1 (mod p). */
  private static boolean sumsToOne(long x0, long x1, long y0, long y1) {
    long s0 = x0 + y0;
    long s1 = x1 + y1 + carry(x0, y0, s0); // x + y < 2p < 2^128: no carry out
    long top = s1 >>> 63; // fold bit 127: x + y ≡ (s & p) + top, at most p
    long r0 = s0 + top;
    long r1 = (s1 & P_HI) + carry(s0, top, r0);
    return r0 == 1 && r1 == 0;
  }

  /** {@code out[i] (+)= a[i] + y·(b[i] − a[i])}: {@link #combine} with coefficients (1 − y, y). */
  private static void combineAffine(
      long[] a, long[] b, long y0, long y1, long[] out, int oo, int n, boolean accumulate) {
    Small small = n >= SMALL_MIN_BATCH ? Small.of(y0, y1) : null;
    long u = small == null ? 0 : small.u;
    int shift = small == null ? 0 : small.shift;
    long negate = small == null ? 0 : small.negate;
    for (int i = 0; i < n; i++) {
      int io = 2 * (oo + i);
      long a0 = a[2 * i];
      long a1 = a[2 * i + 1];
      long b0 = b[2 * i];
      // d = b − a mod p, branch-free as in sub
      long d0 = b0 - a0;
      long borrow = ((~b0 & a0) | (~(b0 ^ a0) & d0)) >>> 63;
      long d1 = b[2 * i + 1] - a1 - borrow;
      long mask = d1 >> 63;
      long e0 = d0 + (P_LO & mask);
      long e1 = d1 + (P_HI & mask) + carry(d0, P_LO & mask, e0);
      if (accumulate) {
        long o0 = out[io];
        long s0 = a0 + o0;
        reduce128(s0, a1 + out[io + 1] + carry(a0, o0, s0), out, io); // a + out < 2p
        a0 = out[io];
        a1 = out[io + 1];
      }
      if (small != null) {
        mulSmallAdd(e0, e1, u, shift, negate, a0, a1, out, io);
      } else {
        mulAdd(e0, e1, y0, y1, a0, a1, out, io);
      }
    }
  }

  /** Elements per block of {@link #linear}: its limb sums, 3 longs per element, stay in L1. */
  private static final int LINEAR_BLOCK = 256;

  /** The low 43 bits: a 127-bit value is three limbs of 43, 43 and 41 bits. */
  private static final long LIMB = (1L << 43) - 1;

  /**
   * Terms brought to 127-bit values ≡ c·x (mod p) and summed as three limbs of 43 bits in three
   * longs per element, with no carry between them: each addition adds below 2^44 to a limb, so a
   * limb holds 2^19 of them. One fold per element at the end. A term with coefficients ±1 or 0
   * costs a select (−x is x with its 127 bits inverted, and −0 = p ≡ 0 needs no care here, as the
   * sum is reduced once at the end), where {@link #mul} and {@link #add} cost a product or a
   * reduction per term.
   */
  @Override
  public void linear(
      long[][] terms, int[] offsets, long[][] coefficients, long[] out, int oo, int n) {
    if (terms.length >= 1 << 18) {
      Field.super.linear(terms, offsets, coefficients, out, oo, n);
      return;
    }
    long[] sums = new long[3 * Math.min(n, LINEAR_BLOCK)];
    for (int start = 0; start < n; start += LINEAR_BLOCK) {
      int len = Math.min(LINEAR_BLOCK, n - start);
      java.util.Arrays.fill(sums, 0, 3 * len, 0L);
      for (int t = 0; t < terms.length; t++) {
        long[] x = terms[t];
        int xo = 2 * (offsets[t] + start);
        long[] c = coefficients[t];
        if (c == null) {
          for (int i = 0; i < len; i++) {
            addLimbs(x[xo + 2 * i], x[xo + 2 * i + 1], sums, 3 * i);
          }
        } else if (signsOnly(c, start, len)) {
          for (int i = 0; i < len; i++) {
            long ci = c[start + i];
            long negate = ci >> 63;
            long keep = -(ci & 1); // all ones for ±1, zero for 0
            long v0 = (x[xo + 2 * i] ^ negate) & keep;
            long v1 = (x[xo + 2 * i + 1] ^ (negate & P_HI)) & keep;
            addLimbs(v0, v1, sums, 3 * i);
          }
        } else {
          for (int i = 0; i < len; i++) {
            addSmallProduct(x[xo + 2 * i], x[xo + 2 * i + 1], c[start + i], sums, 3 * i);
          }
        }
      }
      for (int i = 0; i < len; i++) {
        foldLimbs(sums, 3 * i, out, 2 * (oo + start + i));
      }
    }
  }

  /**
   * Rows scaled by powers of two (composing bits) are rotations summed as in {@link #linear}: one
   * reduction per element instead of one per row. Other scalars take the default.
   */
  @Override
  public void sumRows(long[] a, int ao, int rows, int n, long[] scalars, long[] out, int oo) {
    int[] shifts = new int[rows];
    for (int i = 0; i < rows; i++) {
      long c0 = scalars[2 * i];
      long c1 = scalars[2 * i + 1];
      boolean power = c1 == 0 ? Long.bitCount(c0) == 1 : c0 == 0 && Long.bitCount(c1) == 1;
      if (!power || rows >= 1 << 18) {
        Field.super.sumRows(a, ao, rows, n, scalars, out, oo);
        return;
      }
      shifts[i] = c1 == 0 ? Long.numberOfTrailingZeros(c0) : 64 + Long.numberOfTrailingZeros(c1);
    }
    long[] sums = new long[3 * Math.min(n, LINEAR_BLOCK)];
    long[] rotated = new long[2];
    for (int start = 0; start < n; start += LINEAR_BLOCK) {
      int len = Math.min(LINEAR_BLOCK, n - start);
      java.util.Arrays.fill(sums, 0, 3 * len, 0L);
      for (int r = 0; r < rows; r++) {
        int s = shifts[r];
        int xo = 2 * (ao + r * n + start);
        for (int i = 0; i < len; i++) {
          rotateLeft(a[xo + 2 * i], a[xo + 2 * i + 1], s, rotated, 0); // x·2^s mod p
          addLimbs(rotated[0], rotated[1], sums, 3 * i);
        }
      }
      for (int i = 0; i < len; i++) {
        foldLimbs(sums, 3 * i, out, 2 * (oo + start + i));
      }
    }
  }

  private static boolean signsOnly(long[] c, int from, int len) {
    for (int i = from; i < from + len; i++) {
      long ci = c[i];
      if (ci < -1 || ci > 1) {
        return false;
      }
    }
    return true;
  }

  /** Adds the 127-bit value v0 + v1·2^64 to the limb sums at {@code sums[k, k + 3)}. */
  private static void addLimbs(long v0, long v1, long[] sums, int k) {
    sums[k] += v0 & LIMB;
    sums[k + 1] += ((v0 >>> 43) | (v1 << 21)) & LIMB;
    sums[k + 2] += v1 >>> 22;
  }

  /**
   * Adds c·x for canonical x and |c| < 2^31 to the limb sums: |c|·x < 2^158 folds to L + H with L <
   * 2^127 and H < 2^32, and both are negated (bits inverted) for c < 0.
   */
  private static void addSmallProduct(long x0, long x1, long c, long[] sums, int k) {
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
  private static void foldLimbs(long[] sums, int k, long[] out, int o) {
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

  @Override
  public void scaleAdd(long[] a, int ao, long[] c, int co, long[] acc, int acco, int n) {
    long k0 = c[2 * co];
    long k1 = c[2 * co + 1];
    Small small = n >= SMALL_MIN_BATCH ? Small.of(k0, k1) : null;
    long u = small == null ? 0 : small.u;
    int shift = small == null ? 0 : small.shift;
    long negate = small == null ? 0 : small.negate;
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      int ic = 2 * (acco + i);
      if (small != null) {
        mulSmallAdd(a[ia], a[ia + 1], u, shift, negate, acc[ic], acc[ic + 1], acc, ic);
      } else {
        mulAdd(a[ia], a[ia + 1], k0, k1, acc[ic], acc[ic + 1], acc, ic);
      }
    }
  }

  @Override
  public void addScalar(long[] a, int ao, long[] c, int co, long[] out, int oo, int n) {
    long k0 = c[2 * co];
    long k1 = c[2 * co + 1];
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      long a0 = a[ia];
      long s0 = a0 + k0;
      long s1 = a[ia + 1] + k1 + carry(a0, k0, s0);
      reduce128(s0, s1, out, 2 * (oo + i));
    }
  }

  @Override
  public void sum(long[] a, int ao, int n, long[] out, int oo) {
    // Accumulate in the output element itself, canonical after every step. Element 0 is copied
    // rather than added to a zeroed output, so that out may alias a at the same offset.
    int io = 2 * oo;
    if (n == 0) {
      out[io] = 0;
      out[io + 1] = 0;
      return;
    }
    out[io] = a[2 * ao];
    out[io + 1] = a[2 * ao + 1];
    for (int i = 1; i < n; i++) {
      int ia = 2 * (ao + i);
      long a0 = a[ia];
      long x0 = out[io];
      long s0 = x0 + a0;
      long s1 = out[io + 1] + a[ia + 1] + carry(x0, a0, s0);
      reduce128(s0, s1, out, io);
    }
  }

  @Override
  public void innerProduct(long[] a, int ao, long[] b, int bo, int n, long[] out, int oo) {
    // The running sum lives in the output element and rides along as the addend of each
    // multiply-add. Term 0 is written before anything is added to it, so that out may alias a
    // or b at the same offset.
    int io = 2 * oo;
    if (n == 0) {
      out[io] = 0;
      out[io + 1] = 0;
      return;
    }
    mulAdd(a[2 * ao], a[2 * ao + 1], b[2 * bo], b[2 * bo + 1], 0, 0, out, io);
    for (int i = 1; i < n; i++) {
      int ia = 2 * (ao + i);
      int ib = 2 * (bo + i);
      mulAdd(a[ia], a[ia + 1], b[ib], b[ib + 1], out[io], out[io + 1], out, io);
    }
  }

  @Override
  public void random(Prg prg, long[] out, int oo, int n) {
    // Draw all words at once; keep 127 bits per element and draw again only for the value p
    // itself (probability 2^-127).
    prg.fill(out, 2 * oo, 2 * n);
    for (int i = 0; i < n; i++) {
      int io = 2 * (oo + i);
      long lo = out[io];
      long hi = out[io + 1] & P_HI;
      while (lo == P_LO && hi == P_HI) {
        lo = prg.nextLong();
        hi = prg.nextLong() & P_HI;
      }
      out[io] = lo;
      out[io + 1] = hi;
    }
  }

  // ---- exponentiation (not hot paths) ---------------------------------------------------------

  @Override
  public void pow(long[] a, int ao, BigInteger e, long[] out, int oo) {
    if (e.signum() < 0) {
      throw new IllegalArgumentException("exponent must be >= 0, got " + e);
    }
    long b0 = a[2 * ao];
    long b1 = a[2 * ao + 1];
    long[] r = {1, 0};
    for (int bit = e.bitLength() - 1; bit >= 0; bit--) {
      mulAdd(r[0], r[1], r[0], r[1], 0, 0, r, 0);
      if (e.testBit(bit)) {
        mulAdd(r[0], r[1], b0, b1, 0, 0, r, 0);
      }
    }
    out[2 * oo] = r[0];
    out[2 * oo + 1] = r[1];
  }

  @Override
  public void inverse(long[] a, int ao, long[] out, int oo) {
    if ((a[2 * ao] | a[2 * ao + 1]) == 0) {
      throw new ArithmeticException("inverse of zero in " + name());
    }
    pow(a, ao, P_MINUS_2, out, oo); // Fermat: x^(p-1) == 1
  }

  @Override
  public boolean sqrt(long[] a, int ao, long[] out, int oo) {
    // p ≡ 3 (mod 4), so x^((p+1)/4) = x^(2^125) squares to x whenever x is a square.
    long[] r = new long[2];
    pow(a, ao, SQRT_EXPONENT, r, 0);
    long[] check = new long[2];
    mulAdd(r[0], r[1], r[0], r[1], 0, 0, check, 0);
    if (check[0] != a[2 * ao] || check[1] != a[2 * ao + 1]) {
      return false;
    }
    if (r[1] >= HALF_HI) { // r > (p - 1) / 2: the other root p - r is the smaller one
      negate(r, 0, r, 0, 1);
    }
    out[2 * oo] = r[0];
    out[2 * oo + 1] = r[1];
    return true;
  }

  // ---- conversions ----------------------------------------------------------------------------

  @Override
  public void encode(long v, long[] out, int oo) {
    // A negative v maps to p + v = (2^64 - 1 + v) + (2^63 - 1) * 2^64, borrowing nothing.
    out[2 * oo] = v < 0 ? v - 1 : v;
    out[2 * oo + 1] = v < 0 ? P_HI : 0;
  }

  @Override
  public void encode(BigInteger v, long[] out, int oo) {
    BigInteger x = v.mod(MODULUS);
    out[2 * oo] = x.longValue(); // low 64 bits
    out[2 * oo + 1] = x.shiftRight(64).longValue();
  }

  @Override
  public BigInteger toBigInteger(long[] a, int ao) {
    BigInteger lo = BigInteger.valueOf(a[2 * ao]);
    if (lo.signum() < 0) {
      lo = lo.add(TWO_64);
    }
    return BigInteger.valueOf(a[2 * ao + 1]).shiftLeft(64).add(lo);
  }

  @Override
  public BigInteger decodeSigned(long[] a, int ao) {
    BigInteger x = toBigInteger(a, ao);
    return a[2 * ao + 1] >= HALF_HI ? x.subtract(MODULUS) : x;
  }

  @Override
  public long decodeLong(long[] a, int ao) {
    long lo = a[2 * ao];
    long hi = a[2 * ao + 1];
    if (hi < HALF_HI) { // non-negative: x itself, which must be < 2^63
      if (hi == 0 && lo >= 0) {
        return lo;
      }
    } else { // negative: -(p - x), where p - x must be <= 2^63
      long m0 = P_LO - lo;
      long m1 = P_HI - hi;
      if (m1 == 0 && Long.compareUnsigned(m0, Long.MIN_VALUE) <= 0) {
        return -m0; // for m0 = 2^63 this wraps to Long.MIN_VALUE, as it should
      }
    }
    throw new ArithmeticException("field element does not fit in a signed 64-bit integer");
  }

  @Override
  public boolean equal(long[] a, int ao, long[] b, int bo) {
    return a[2 * ao] == b[2 * bo] && a[2 * ao + 1] == b[2 * bo + 1];
  }

  @Override
  public String toString() {
    return name();
  }
}
