package dev.cohort.field;

import dev.cohort.random.Prg;
import java.math.BigInteger;

/**
 * The prime field of the Mersenne prime {@code p = 2^61 - 1}, one word per element.
 *
 * <p>Invariant: every element is a {@code long} in {@code [0, p)}, so sums of two elements never
 * overflow and products fit in 122 bits.
 *
 * <p>Reduction uses {@code 2^61 ≡ 1 (mod p)}: {@code x mod p == (x >> 61) + (x & p) (mod p)}, a
 * shift, a mask and an add instead of a division. The static scalar helpers ({@link #mul}, {@link
 * #add}, {@link #sub}) are the kernels' building blocks and are public for code that works on
 * single values.
 */
public final class Mersenne61 implements Field {

  /** The modulus {@code 2^61 - 1}, which is also the mask of the low 61 bits. */
  public static final long P = (1L << 61) - 1;

  private static final BigInteger MODULUS = BigInteger.valueOf(P);

  /** Largest element whose symmetric representative is itself: {@code (p - 1) / 2}. */
  private static final long HALF = (P - 1) / 2;

  Mersenne61() {}

  /** {@code a * b mod p} for canonical {@code a, b}. */
  public static long mul(long a, long b) {
    long hi = Math.multiplyHigh(a, b); // a, b < 2^61, so the product is < 2^122
    long lo = a * b;
    long r = ((hi << 3) | (lo >>> 61)) + (lo & P); // bits above 61, folded onto the low 61
    r = (r & P) + (r >>> 61); // r < 2^62 before, <= p after
    return r >= P ? r - P : r;
  }

  /** {@code a + b mod p} for canonical {@code a, b}. */
  public static long add(long a, long b) {
    long s = a + b; // < 2^62, no overflow
    return s >= P ? s - P : s;
  }

  /** {@code a - b mod p} for canonical {@code a, b}. */
  public static long sub(long a, long b) {
    long d = a - b;
    return d < 0 ? d + P : d;
  }

  /** {@code a^e mod p} for canonical {@code a}, with {@code e} read as an unsigned 64-bit value. */
  public static long pow(long a, long e) {
    long result = 1;
    long base = a;
    while (e != 0) {
      if ((e & 1) != 0) {
        result = mul(result, base);
      }
      base = mul(base, base);
      e >>>= 1;
    }
    return result;
  }

  @Override
  public String name() {
    return "m61";
  }

  @Override
  public BigInteger modulus() {
    return MODULUS;
  }

  @Override
  public int bitLength() {
    return 61;
  }

  @Override
  public int words() {
    return 1;
  }

  @Override
  public void add(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      out[oo + i] = add(a[ao + i], b[bo + i]);
    }
  }

  @Override
  public void sub(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      out[oo + i] = sub(a[ao + i], b[bo + i]);
    }
  }

  @Override
  public void mul(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      out[oo + i] = mul(a[ao + i], b[bo + i]);
    }
  }

  @Override
  public void negate(long[] a, int ao, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      long x = a[ao + i];
      out[oo + i] = x == 0 ? 0 : P - x;
    }
  }

  /** −x = p − x is x with its 61 bits inverted, for canonical x ≠ 0; zero stays zero. */
  @Override
  public void negateWhere(
      long[] bits, int from, boolean flip, long[] a, int ao, long[] out, int oo, int n) {
    long invert = flip ? 1 : 0;
    for (int i = 0; i < n; i++) {
      int at = from + i;
      long x = a[ao + i];
      long nonZero = (x | -x) >> 63; // all ones unless x = 0
      long mask = -(((bits[at >>> 6] >>> (at & 63)) & 1) ^ invert) & nonZero;
      out[oo + i] = x ^ (mask & P);
    }
  }

  @Override
  public void scale(long[] a, int ao, long[] c, int co, long[] out, int oo, int n) {
    long k = c[co];
    for (int i = 0; i < n; i++) {
      out[oo + i] = mul(a[ao + i], k);
    }
  }

  @Override
  public void scaleAdd(long[] a, int ao, long[] c, int co, long[] acc, int acco, int n) {
    long k = c[co];
    for (int i = 0; i < n; i++) {
      acc[acco + i] = add(acc[acco + i], mul(a[ao + i], k));
    }
  }

  /**
   * Lazy reduction: each product is folded once to below 2^62 and up to three are summed before the
   * next fold, so a term costs one multiplication and a few shifts instead of a full reduction and
   * a modular add. In BGW's multiplication at n = 3 it replaced a scale and a scaleAdd per share
   * (two full reductions and a modular add per element); with the reused scratch arrays of
   * BgwSuite.deal the CPU time of the three parties per multiplication (10^6 products, in-memory
   * transport, 2-core machine) fell from about 260 ns to about 130 ns. The two-term loop (t = 1)
   * runs at about the speed of one scaleAdd: about 6 ns per element for two products.
   */
  @Override
  public void combine(long[][] terms, long[] c, long[] out, int oo, int n, boolean accumulate) {
    if (terms.length == 2) {
      combine2(terms[0], terms[1], c[0], c[1], out, oo, n, accumulate);
      return;
    }
    int k = terms.length;
    for (int i = 0; i < n; i++) {
      long acc = accumulate ? out[oo + i] : 0; // < 2^61
      for (int j = 0; j < k; j++) {
        acc += foldProduct(terms[j][i], c[j]); // acc < 2^61 + 8 + 3 * 2^62 < 2^64 (unsigned)
        if (j % 3 == 2) {
          acc = (acc & P) + (acc >>> 61);
        }
      }
      out[oo + i] = finish(acc);
    }
  }

  /**
   * {@link #combine} for two terms (t = 1: the secret and one seeded share). Coefficients that sum
   * to one (every unweighted share) take one product, as {@code a + cb·(b − a)}.
   */
  private static void combine2(
      long[] a, long[] b, long ca, long cb, long[] out, int oo, int n, boolean accumulate) {
    if (add(ca, cb) == 1) {
      for (int i = 0; i < n; i++) {
        long acc = a[i] + foldProduct(sub(b[i], a[i]), cb); // < 2^61 + 2^62
        if (accumulate) {
          acc += out[oo + i]; // < 2^63
        }
        out[oo + i] = finish(acc);
      }
      return;
    }
    for (int i = 0; i < n; i++) {
      long acc = foldProduct(a[i], ca) + foldProduct(b[i], cb); // < 2^63
      if (accumulate) {
        acc += out[oo + i]; // < 2^63 + 2^61
      }
      out[oo + i] = finish(acc);
    }
  }

  /**
   * One pass instead of three (the products, then the kept and the sent share): each product is
   * folded once and used at once, without a reduction, and each share sums two folded products,
   * with the kept share's old value, before one reduction.
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
    long c0 = coefficients[0][0];
    long c1 = coefficients[0][1];
    long e0 = coefficients[1][0];
    long e1 = coefficients[1][1];
    for (int i = 0; i < n; i++) {
      long d = foldProduct(a[from + i], b[from + i]); // < 2^62
      long ri = r[i];
      // d·c folds below 2^62 + 2^61 (its high word is below 2^59), r·c below 2^62: with the kept
      // share (below 2^61) the sum stays below 3·2^62 < 2^64, read unsigned by finish
      acc[from + i] = finish(acc[from + i] + foldProduct(d, c0) + foldProduct(ri, c1));
      out[oo + i] = finish(foldProduct(d, e0) + foldProduct(ri, e1));
    }
  }

  /** {@code a * b} folded once: congruent mod p and below 2^62. */
  private static long foldProduct(long a, long b) {
    long hi = Math.multiplyHigh(a, b); // < 2^58
    long lo = a * b;
    return ((hi << 3) | (lo >>> 61)) + (lo & P);
  }

  /** The canonical value of {@code x}, read as an unsigned 64-bit value. */
  private static long finish(long x) {
    long r = (x & P) + (x >>> 61); // < 2^61 + 8
    return r >= P ? r - P : r;
  }

  @Override
  public void addScalar(long[] a, int ao, long[] c, int co, long[] out, int oo, int n) {
    long k = c[co];
    for (int i = 0; i < n; i++) {
      out[oo + i] = add(a[ao + i], k);
    }
  }

  @Override
  public void sum(long[] a, int ao, int n, long[] out, int oo) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      s = add(s, a[ao + i]);
    }
    out[oo] = s;
  }

  @Override
  public void innerProduct(long[] a, int ao, long[] b, int bo, int n, long[] out, int oo) {
    long s = 0;
    for (int i = 0; i < n; i++) {
      s = add(s, mul(a[ao + i], b[bo + i]));
    }
    out[oo] = s;
  }

  @Override
  public void random(Prg prg, long[] out, int oo, int n) {
    // Draw the whole batch at once into the output, then keep 61 bits of each word; only the
    // value p itself (probability 2^-61) is outside the field and is drawn again.
    prg.fill(out, oo, n);
    for (int i = oo; i < oo + n; i++) {
      long v = out[i] & P;
      while (v == P) {
        v = prg.nextLong() & P;
      }
      out[i] = v;
    }
  }

  @Override
  public void pow(long[] a, int ao, BigInteger e, long[] out, int oo) {
    if (e.signum() < 0) {
      throw new IllegalArgumentException("exponent must be >= 0, got " + e);
    }
    long base = a[ao];
    long result = 1;
    for (int bit = e.bitLength() - 1; bit >= 0; bit--) {
      result = mul(result, result);
      if (e.testBit(bit)) {
        result = mul(result, base);
      }
    }
    out[oo] = result;
  }

  @Override
  public void inverse(long[] a, int ao, long[] out, int oo) {
    long x = a[ao];
    if (x == 0) {
      throw new ArithmeticException("inverse of zero in " + name());
    }
    out[oo] = pow(x, P - 2); // Fermat: x^(p-1) == 1
  }

  @Override
  public boolean sqrt(long[] a, int ao, long[] out, int oo) {
    long x = a[ao];
    // p ≡ 3 (mod 4), so x^((p+1)/4) squares to x whenever x is a square.
    long r = pow(x, (P + 1) / 4);
    if (mul(r, r) != x) {
      return false;
    }
    out[oo] = r > HALF ? P - r : r;
    return true;
  }

  @Override
  public void encode(long v, long[] out, int oo) {
    out[oo] = Math.floorMod(v, P);
  }

  @Override
  public void encode(BigInteger v, long[] out, int oo) {
    out[oo] = v.mod(MODULUS).longValue();
  }

  @Override
  public BigInteger toBigInteger(long[] a, int ao) {
    return BigInteger.valueOf(a[ao]);
  }

  @Override
  public BigInteger decodeSigned(long[] a, int ao) {
    return BigInteger.valueOf(decodeLong(a, ao));
  }

  @Override
  public long decodeLong(long[] a, int ao) {
    long x = a[ao];
    return x > HALF ? x - P : x; // always fits: |result| < 2^60
  }

  @Override
  public boolean equal(long[] a, int ao, long[] b, int bo) {
    return a[ao] == b[bo];
  }

  @Override
  public String toString() {
    return name();
  }
}
