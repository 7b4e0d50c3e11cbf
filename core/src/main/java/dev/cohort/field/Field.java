package dev.cohort.field;

import dev.cohort.random.Prg;
import java.math.BigInteger;

/**
 * A prime field whose elements are fixed-width little-endian words packed in {@code long[]}.
 *
 * <p>Element {@code i} of a packed array occupies words {@code [i * words(), (i + 1) * words())}.
 * Every element handed to or returned from a kernel is canonical, in {@code [0, p)}. Offsets and
 * counts are in elements, not words. Output arrays may alias input arrays at the same offset.
 *
 * <p>Suites call a kernel once per batch, never once per element, so one code path serves every
 * field and the virtual call is amortized over the whole batch.
 */
public interface Field {

  /** A short name used in configuration and reports, e.g. {@code m61}. */
  String name();

  BigInteger modulus();

  /** Bit length of the modulus. */
  int bitLength();

  /** 64-bit words per element. */
  int words();

  /** {@code out[i] = a[i] + b[i]}. */
  void add(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n);

  /** {@code out[i] = a[i] - b[i]}. */
  void sub(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n);

  /** {@code out[i] = a[i] * b[i]}. */
  void mul(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n);

  /** {@code out[i] = -a[i]}. */
  void negate(long[] a, int ao, long[] out, int oo, int n);

  /**
   * {@code out[i] = bit ? −a[i] : a[i]} with {@code bit} = bit {@code from + i} of the packed
   * {@code bits} (bit j is {@code bits[j >>> 6] >>> (j & 63) & 1}), inverted when {@code flip}: the
   * product of a share with a public or locally known sign 1 − 2x, without a branch on the bit. The
   * default negates into {@code out} and selects; fields with a cheaper form override it.
   */
  default void negateWhere(
      long[] bits, int from, boolean flip, long[] a, int ao, long[] out, int oo, int n) {
    int words = words();
    long[] negated = new long[n * words];
    negate(a, ao, negated, 0, n);
    long invert = flip ? 1 : 0;
    for (int i = 0; i < n; i++) {
      int at = from + i;
      long set = -(((bits[at >>> 6] >>> (at & 63)) & 1) ^ invert);
      for (int k = 0; k < words; k++) {
        int o = (oo + i) * words + k;
        out[o] = (negated[i * words + k] & set) | (a[(ao + i) * words + k] & ~set);
      }
    }
  }

  /** {@code out[i] = a[i] * c}, where {@code c} is the one element at {@code c[co]}. */
  void scale(long[] a, int ao, long[] c, int co, long[] out, int oo, int n);

  /** {@code acc[i] += a[i] * c}, where {@code c} is the one element at {@code c[co]}. */
  void scaleAdd(long[] a, int ao, long[] c, int co, long[] acc, int acco, int n);

  /**
   * {@code out[oo + i] = c[0] * terms[0][i] + ... + c[k - 1] * terms[k - 1][i]} for {@code i < n},
   * {@code k = terms.length}, each term read from element 0; with {@code accumulate} the sum is
   * added to {@code out[oo + i]}. {@code out} must not alias a term. One pass over the data: the
   * fused kernel of Shamir dealing (a share is a fixed linear combination of the secret and the
   * seeded shares). The default is {@link #scale} and {@link #scaleAdd} term by term.
   */
  default void combine(long[][] terms, long[] c, long[] out, int oo, int n, boolean accumulate) {
    int first = 0;
    if (!accumulate) {
      scale(terms[0], 0, c, 0, out, oo, n);
      first = 1;
    }
    for (int j = first; j < terms.length; j++) {
      scaleAdd(terms[j], 0, c, j, out, oo, n);
    }
  }

  /** The bound on the coefficients of {@link #linear}: |c| < 2^31. */
  long LINEAR_COEFFICIENT_BOUND = 1L << 31;

  /**
   * {@code out[oo + i] = c_0[i]·x_0[o_0 + i] + ... + c_(k−1)[i]·x_(k−1)[o_(k−1) + i]} for {@code i
   * < n}, with {@code x_t = terms[t]}, {@code o_t = offsets[t]} and {@code c_t = coefficients[t]}:
   * small signed integers ({@code |c| <} {@link #LINEAR_COEFFICIENT_BOUND}), or null for all ones.
   * {@code out} must not alias a term. The library's bitwise steps are such forms (a Hamming
   * distance to public bits sums m terms with coefficients ±1), so fields whose reduction is costly
   * override this with one pass and one reduction per element; the default is {@link #mul} and
   * {@link #add} term by term.
   */
  default void linear(
      long[][] terms, int[] offsets, long[][] coefficients, long[] out, int oo, int n) {
    int words = words();
    long[] packed = new long[n * words];
    long[] product = new long[n * words];
    java.util.Arrays.fill(out, oo * words, (oo + n) * words, 0L);
    for (int t = 0; t < terms.length; t++) {
      long[] c = coefficients[t];
      if (c == null) {
        add(out, oo, terms[t], offsets[t], out, oo, n);
        continue;
      }
      for (int i = 0; i < n; i++) {
        encode(c[i], packed, i);
      }
      mul(terms[t], offsets[t], packed, 0, product, 0, n);
      add(out, oo, product, 0, out, oo, n);
    }
  }

  /**
   * A dealer's pass over products at threshold one: for {@code i < n}, with {@code d = a[from + i]
   * · b[from + i]} and the seeded value {@code r[i]}, adds {@code own[0]·d + own[1]·r[i]} to {@code
   * acc[from + i]} and writes {@code other[0]·d + other[1]·r[i]} to {@code out[oo + i]}, where
   * {@code own} and {@code other} are {@code coefficients[0]} and {@code [1]}: BGW's multiplication
   * at n = 3, where each dealer keeps one share of its product and sends one. {@code out} must not
   * alias the others. The default multiplies into {@code scratch} (at least n elements) and
   * combines twice ({@link #mul}, {@link #combine}); a field with cheap lazy reduction fuses the
   * three passes into one.
   */
  default void dealProducts(
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
    mul(a, from, b, from, scratch, 0, n);
    long[][] terms = {scratch, r};
    combine(terms, coefficients[0], acc, from, n, true);
    combine(terms, coefficients[1], out, oo, n, false);
  }

  /**
   * {@code out[oo + j] = Σ_i c_i · a[ao + i·n + j]} for {@code j < n}: {@code rows} rows of n
   * elements scaled by the elements {@code c_i} of {@code scalars} and summed (bits composed into
   * integers with powers of two). The default is {@link #scale} and {@link #scaleAdd} row by row.
   */
  default void sumRows(long[] a, int ao, int rows, int n, long[] scalars, long[] out, int oo) {
    if (rows == 0) {
      java.util.Arrays.fill(out, oo * words(), (oo + n) * words(), 0L);
      return;
    }
    scale(a, ao, scalars, 0, out, oo, n);
    for (int i = 1; i < rows; i++) {
      scaleAdd(a, ao + i * n, scalars, i, out, oo, n);
    }
  }

  /** {@code out[i] = a[i] + c}, where {@code c} is the one element at {@code c[co]}. */
  void addScalar(long[] a, int ao, long[] c, int co, long[] out, int oo, int n);

  /** {@code out[oo] = a[ao] + ... + a[ao + n - 1]} (zero for {@code n = 0}). */
  void sum(long[] a, int ao, int n, long[] out, int oo);

  /** {@code out[oo] = sum of a[ao + i] * b[bo + i]} for {@code i < n}. */
  void innerProduct(long[] a, int ao, long[] b, int bo, int n, long[] out, int oo);

  /** Fills {@code n} uniformly random elements from {@code prg} (rejection sampling). */
  void random(Prg prg, long[] out, int oo, int n);

  /** {@code out = a^e} for {@code e >= 0}. Not a hot path. */
  void pow(long[] a, int ao, BigInteger e, long[] out, int oo);

  /** {@code out = a^-1}; throws {@link ArithmeticException} for zero. */
  void inverse(long[] a, int ao, long[] out, int oo);

  /**
   * Writes a square root of {@code a} to {@code out} and returns true, or returns false when {@code
   * a} is not a square. The root returned is the canonical one: the smaller of the two roots {@code
   * r} and {@code p - r} (zero's root is zero).
   */
  boolean sqrt(long[] a, int ao, long[] out, int oo);

  /** Encodes a signed integer as {@code v mod p}. */
  void encode(long v, long[] out, int oo);

  /** Encodes a signed integer as {@code v mod p}. */
  void encode(BigInteger v, long[] out, int oo);

  /** The canonical value in {@code [0, p)}. */
  BigInteger toBigInteger(long[] a, int ao);

  /** The signed value in the symmetric range {@code (-p/2, p/2]}. */
  BigInteger decodeSigned(long[] a, int ao);

  /**
   * The signed value in the symmetric range, as a {@code long}; throws {@link ArithmeticException}
   * when it does not fit in 64 bits.
   */
  long decodeLong(long[] a, int ao);

  /** True when the elements at {@code a[ao]} and {@code b[bo]} are equal. */
  boolean equal(long[] a, int ao, long[] b, int bo);

  /** A new zeroed packed array of {@code n} elements. */
  default long[] alloc(int n) {
    return new long[Math.multiplyExact(n, words())];
  }
}
