package dev.cohort.field;

import static dev.cohort.field.Limbs127.P_HI;
import static dev.cohort.field.Limbs127.P_LO;
import static dev.cohort.field.Limbs127.addLimbs;
import static dev.cohort.field.Limbs127.addSmallProduct;
import static dev.cohort.field.Limbs127.carry;
import static dev.cohort.field.Limbs127.foldLimbs;
import static dev.cohort.field.Limbs127.mulAdd;
import static dev.cohort.field.Limbs127.reduce128;
import static dev.cohort.field.Limbs127.rotateLeft;

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
 * becomes zero. The word arithmetic lives in {@link Limbs127}; products by small constants (BGW's
 * coefficients, public signs) in {@link SmallConstants127}.
 *
 * <p>Why past 400 lines: the class implements the whole {@link Field} interface for one
 * representation, and each override is a short loop over those helpers; splitting it further would
 * split one contract across files.
 */
public final class Mersenne127 implements Field {

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
    for (int i = SmallConstants127.mulSigns(a, ao, b, bo, out, oo, n); i < n; i++) {
      int ia = 2 * (ao + i);
      int ib = 2 * (bo + i);
      mulAdd(a[ia], a[ia + 1], b[ib], b[ib + 1], 0, 0, out, 2 * (oo + i));
    }
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
    if (SmallConstants127.scale(a, ao, k0, k1, out, oo, n)) {
      return;
    }
    for (int i = 0; i < n; i++) {
      int ia = 2 * (ao + i);
      mulAdd(a[ia], a[ia + 1], k0, k1, 0, 0, out, 2 * (oo + i));
    }
  }

  /**
   * Two terms (t = 1 in BGW's dealing: the secret and one seeded share) in one pass with one
   * reduction; see {@link SmallConstants127#combineTwo}.
   */
  @Override
  public void combine(long[][] terms, long[] c, long[] out, int oo, int n, boolean accumulate) {
    if (terms.length != 2) {
      Field.super.combine(terms, c, out, oo, n, accumulate);
      return;
    }
    SmallConstants127.combineTwo(terms[0], terms[1], c, out, oo, n, accumulate);
  }

  /**
   * One pass over the products, each made and used for both shares at once, where BGW's
   * coefficients allow it; see {@link ProductDealing127}. Otherwise the generic passes.
   */
  @Override
  public void dealProducts(
      long[] a,
      long[] b,
      int from,
      long[] r,
      long[][] coefficients,
      long[] acc,
      long[] out,
      int oo,
      int n,
      long[] scratch) {
    if (!ProductDealing127.dealProducts(a, b, from, r, coefficients, acc, out, oo, n)) {
      Field.super.dealProducts(a, b, from, r, coefficients, acc, out, oo, n, scratch);
    }
  }

  /** Elements per block of {@link #linear}: its limb sums, 3 longs per element, stay in L1. */
  private static final int LINEAR_BLOCK = 256;

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

  @Override
  public void scaleAdd(long[] a, int ao, long[] c, int co, long[] acc, int acco, int n) {
    SmallConstants127.scaleAdd(a, ao, c[2 * co], c[2 * co + 1], acc, acco, n);
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
