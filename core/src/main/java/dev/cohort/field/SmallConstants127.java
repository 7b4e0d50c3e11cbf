package dev.cohort.field;

import static dev.cohort.field.Limbs127.P_HI;
import static dev.cohort.field.Limbs127.P_LO;
import static dev.cohort.field.Limbs127.carry;
import static dev.cohort.field.Limbs127.mulAdd;
import static dev.cohort.field.Limbs127.mulAddFolded;
import static dev.cohort.field.Limbs127.reduce128;
import static dev.cohort.field.Limbs127.rotateLeft;

/**
 * Fused kernels of {@link Mersenne127} for products by small constants: a constant c = ±u·2^s (mod
 * p) with u below 2^62 (see {@link Small}) costs two 64-bit products and a rotation where a full
 * product costs eight, and u = 1 costs none. These are the constants of BGW (suite-bgw) at small n:
 * its Lagrange coefficients and dealing coefficients reach {@link Field#scale}, {@link
 * Field#scaleAdd} and {@link Field#combine} of the field, which call here. Products by public
 * coefficients in {0, 1, −1} (the library's bitwise protocols) are selects ({@link #mulSigns}).
 *
 * <p>Invariant: inputs and outputs are canonical; every kernel is static and allocation-free in its
 * loop, and gives exactly the result of the generic product ({@code FieldContract} pins it).
 */
final class SmallConstants127 {

  private SmallConstants127() {}

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
  record Small(long u, int shift, long negate) {

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
   * {@link Field#scale} by c = k0 + k1·2^64 when c is of the form {@link Small} and the batch is
   * large enough to classify it; otherwise writes nothing and returns false.
   */
  static boolean scale(long[] a, int ao, long k0, long k1, long[] out, int oo, int n) {
    Small small = n >= SMALL_MIN_BATCH ? Small.of(k0, k1) : null;
    if (small == null) {
      return false;
    }
    long u = small.u;
    int shift = small.shift;
    long negate = small.negate;
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      mulSmallAdd(a[ia], a[ia + 1], u, shift, negate, 0, 0, out, 2 * (oo + i));
    }
    return true;
  }

  /** {@link Field#scaleAdd} by c = k0 + k1·2^64: as {@link Small} where it is of that form. */
  static void scaleAdd(long[] a, int ao, long k0, long k1, long[] acc, int acco, int n) {
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
   * {@link Field#combine} of two terms (t = 1 in BGW's dealing: the secret and one seeded share) in
   * one pass with one reduction: the first product is only folded and rides along as the addend of
   * the second. Coefficients that sum to one (a Lagrange basis) take one product, as {@code a +
   * c1·(b − a)}: 23 ns per element instead of 35 (2048 elements, a loaded 2-core machine; a product
   * alone is 18 ns). Coefficients of the form {@link Small} (BGW's at n = 3, weights folded in)
   * take none: see {@link #combineSmall}.
   */
  static void combineTwo(
      long[] a, long[] b, long[] c, long[] out, int oo, int n, boolean accumulate) {
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
   * {@link #combineTwo} of two terms when at least one coefficient is of the form {@link Small}
   * (null where it is not): as BGW's dealing coefficients over 2^127 − 1 once the seeded shares are
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

  /**
   * {@code out[i] (+)= a[i] + y·(b[i] − a[i])}: {@link #combineTwo} with coefficients (1 − y, y).
   */
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

  /**
   * {@link Mersenne127#mul} by coefficients in {0, 1, −1} (the public coefficients with which the
   * library's bitwise protocols scale secret bits: c xor r = c + (1 − 2c)·r and the like) as a
   * select, branch-free in the pattern, which follows public bits that look random. Stops at the
   * first other coefficient and returns how many elements it wrote, so that the check costs one
   * pass together with the select, not one before it (a vector of shares stops at element 0). In a
   * BGW 32-bit comparison the scaling of bits by such vectors was 13% of the CPU time (JFR) with
   * full multiplications, and a separate scan before the select was 4–7%.
   */
  static int mulSigns(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
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
}
