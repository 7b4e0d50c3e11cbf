package dev.cohort.field;

import dev.cohort.random.Prg;
import java.math.BigInteger;

/**
 * The prime field of any odd prime the user names, on {@link BigInteger}: slow but general.
 *
 * <p>Invariant: an element is {@code words() = ceil(bitLength / 64)} little-endian words holding a
 * value in {@code [0, p)}; the top word is read unsigned like the others.
 *
 * <p>Each kernel converts its operands to {@code BigInteger} per element, computes, and converts
 * back. That costs allocation per element, which the Mersenne fields avoid; use them where speed
 * matters. Square roots use the exponent {@code (p + 1) / 4} when {@code p ≡ 3 (mod 4)} and
 * Tonelli–Shanks otherwise.
 */
public final class BigPrimeField implements Field {

  private final BigInteger p;
  private final int words;
  private final long[] modulusWords;
  private final BigInteger half; // (p - 1) / 2, the largest non-negative decoding

  // Tonelli–Shanks constants: p - 1 = q * 2^s with q odd, and z a quadratic non-residue.
  private final BigInteger q;
  private final int s;
  private final BigInteger nonResidue;

  /**
   * The field of {@code p}.
   *
   * @throws IllegalArgumentException if {@code p} is not a prime of at least 3 bits
   */
  public BigPrimeField(BigInteger p) {
    // isProbablePrime ignores the sign, hence the explicit check. Error probability: 2^-64.
    if (p.signum() <= 0 || p.bitLength() < 3 || !p.isProbablePrime(64)) {
      throw new IllegalArgumentException("field modulus must be a prime >= 5, got " + p);
    }
    this.p = p;
    this.words = (p.bitLength() + 63) / 64;
    this.modulusWords = new long[words];
    write(p, modulusWords, 0, words);
    this.half = p.shiftRight(1);
    BigInteger pMinus1 = p.subtract(BigInteger.ONE);
    this.s = pMinus1.getLowestSetBit();
    this.q = pMinus1.shiftRight(s);
    this.nonResidue = s == 1 ? null : findNonResidue();
  }

  /** The least quadratic non-residue, by Euler's criterion; it is small (O(log^2 p) under GRH). */
  private BigInteger findNonResidue() {
    BigInteger z = BigInteger.TWO;
    while (z.modPow(half, p).equals(BigInteger.ONE)) {
      z = z.add(BigInteger.ONE);
    }
    return z;
  }

  @Override
  public String name() {
    return "p" + p;
  }

  @Override
  public BigInteger modulus() {
    return p;
  }

  @Override
  public int bitLength() {
    return p.bitLength();
  }

  @Override
  public int words() {
    return words;
  }

  // ---- word <-> BigInteger ---------------------------------------------------------------------

  private BigInteger get(long[] a, int element) {
    return read(a, element, words);
  }

  private void set(BigInteger v, long[] out, int element) {
    write(v, out, element, words);
  }

  /**
   * The unsigned value of the {@code words}-word little-endian element at index {@code element}.
   */
  static BigInteger read(long[] a, int element, int words) {
    int base = element * words;
    byte[] bigEndian = new byte[8 * words];
    for (int w = 0; w < words; w++) {
      long word = a[base + w];
      int at = 8 * (words - 1 - w);
      for (int k = 0; k < 8; k++) {
        bigEndian[at + k] = (byte) (word >>> (56 - 8 * k));
      }
    }
    return new BigInteger(1, bigEndian);
  }

  /**
   * Writes a value in {@code [0, 2^(64 * words))} as little-endian words at index {@code element}.
   */
  static void write(BigInteger v, long[] out, int element, int words) {
    int base = element * words;
    for (int w = 0; w < words; w++) {
      out[base + w] = v.shiftRight(64 * w).longValue();
    }
  }

  // ---- kernels ---------------------------------------------------------------------------------

  @Override
  public void add(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      BigInteger x = get(a, ao + i).add(get(b, bo + i));
      set(x.compareTo(p) >= 0 ? x.subtract(p) : x, out, oo + i);
    }
  }

  @Override
  public void sub(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      BigInteger x = get(a, ao + i).subtract(get(b, bo + i));
      set(x.signum() < 0 ? x.add(p) : x, out, oo + i);
    }
  }

  @Override
  public void mul(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      set(get(a, ao + i).multiply(get(b, bo + i)).mod(p), out, oo + i);
    }
  }

  @Override
  public void negate(long[] a, int ao, long[] out, int oo, int n) {
    for (int i = 0; i < n; i++) {
      BigInteger x = get(a, ao + i);
      set(x.signum() == 0 ? x : p.subtract(x), out, oo + i);
    }
  }

  @Override
  public void scale(long[] a, int ao, long[] c, int co, long[] out, int oo, int n) {
    BigInteger k = get(c, co);
    for (int i = 0; i < n; i++) {
      set(get(a, ao + i).multiply(k).mod(p), out, oo + i);
    }
  }

  @Override
  public void scaleAdd(long[] a, int ao, long[] c, int co, long[] acc, int acco, int n) {
    BigInteger k = get(c, co);
    for (int i = 0; i < n; i++) {
      set(get(a, ao + i).multiply(k).add(get(acc, acco + i)).mod(p), acc, acco + i);
    }
  }

  /**
   * Two terms whose coefficients sum to one (every unweighted Shamir share at t = 1) take one
   * product, as {@code a + c1·(b − a)}, as in the Mersenne fields; anything else term by term.
   */
  @Override
  public void combine(long[][] terms, long[] c, long[] out, int oo, int n, boolean accumulate) {
    BigInteger c1 = terms.length == 2 ? get(c, 1) : null;
    if (c1 == null || !get(c, 0).add(c1).mod(p).equals(BigInteger.ONE)) {
      Field.super.combine(terms, c, out, oo, n, accumulate);
      return;
    }
    for (int i = 0; i < n; i++) {
      BigInteger a = get(terms[0], i);
      BigInteger v = a.add(c1.multiply(get(terms[1], i).subtract(a)));
      if (accumulate) {
        v = v.add(get(out, oo + i));
      }
      set(v.mod(p), out, oo + i);
    }
  }

  @Override
  public void addScalar(long[] a, int ao, long[] c, int co, long[] out, int oo, int n) {
    BigInteger k = get(c, co);
    for (int i = 0; i < n; i++) {
      BigInteger x = get(a, ao + i).add(k);
      set(x.compareTo(p) >= 0 ? x.subtract(p) : x, out, oo + i);
    }
  }

  @Override
  public void sum(long[] a, int ao, int n, long[] out, int oo) {
    BigInteger total = BigInteger.ZERO;
    for (int i = 0; i < n; i++) {
      total = total.add(get(a, ao + i));
    }
    set(total.mod(p), out, oo);
  }

  @Override
  public void innerProduct(long[] a, int ao, long[] b, int bo, int n, long[] out, int oo) {
    BigInteger total = BigInteger.ZERO;
    for (int i = 0; i < n; i++) {
      total = total.add(get(a, ao + i).multiply(get(b, bo + i)));
    }
    set(total.mod(p), out, oo);
  }

  @Override
  public void random(Prg prg, long[] out, int oo, int n) {
    // Draw bitLength bits per element and reject values >= p (probability < 1/2 per draw).
    int topBits = p.bitLength() - 64 * (words - 1);
    long topMask = topBits == 64 ? -1L : (1L << topBits) - 1;
    for (int i = 0; i < n; i++) {
      int base = (oo + i) * words;
      do {
        prg.fill(out, base, words);
        out[base + words - 1] &= topMask;
      } while (!lessThanModulus(out, base));
    }
  }

  private boolean lessThanModulus(long[] a, int base) {
    for (int w = words - 1; w >= 0; w--) {
      int c = Long.compareUnsigned(a[base + w], modulusWords[w]);
      if (c != 0) {
        return c < 0;
      }
    }
    return false; // equal to p
  }

  // ---- exponentiation and roots (not hot paths) -----------------------------------------------

  @Override
  public void pow(long[] a, int ao, BigInteger e, long[] out, int oo) {
    if (e.signum() < 0) {
      throw new IllegalArgumentException("exponent must be >= 0, got " + e);
    }
    set(get(a, ao).modPow(e, p), out, oo);
  }

  @Override
  public void inverse(long[] a, int ao, long[] out, int oo) {
    BigInteger x = get(a, ao);
    if (x.signum() == 0) {
      throw new ArithmeticException("inverse of zero in " + name());
    }
    set(x.modInverse(p), out, oo);
  }

  @Override
  public boolean sqrt(long[] a, int ao, long[] out, int oo) {
    BigInteger x = get(a, ao);
    BigInteger r = s == 1 ? x.modPow(p.add(BigInteger.ONE).shiftRight(2), p) : tonelliShanks(x);
    if (r == null || !r.multiply(r).mod(p).equals(x)) {
      return false;
    }
    set(r.compareTo(half) > 0 ? p.subtract(r) : r, out, oo);
    return true;
  }

  /** A square root of {@code x} for {@code p ≡ 1 (mod 4)}, or null when there is none. */
  private BigInteger tonelliShanks(BigInteger x) {
    if (x.signum() == 0) {
      return x;
    }
    if (!x.modPow(half, p).equals(BigInteger.ONE)) {
      return null; // Euler's criterion: not a square
    }
    // Loop invariant: r^2 = x * t, and t has order 2^i with i < m; c has order 2^m.
    int m = s;
    BigInteger c = nonResidue.modPow(q, p);
    BigInteger t = x.modPow(q, p);
    BigInteger r = x.modPow(q.add(BigInteger.ONE).shiftRight(1), p);
    while (!t.equals(BigInteger.ONE)) {
      int i = 0;
      BigInteger t2i = t;
      while (!t2i.equals(BigInteger.ONE)) {
        t2i = t2i.multiply(t2i).mod(p);
        i++;
      }
      BigInteger b = c.modPow(BigInteger.ONE.shiftLeft(m - i - 1), p);
      m = i;
      c = b.multiply(b).mod(p);
      t = t.multiply(c).mod(p);
      r = r.multiply(b).mod(p);
    }
    return r;
  }

  // ---- conversions -----------------------------------------------------------------------------

  @Override
  public void encode(long v, long[] out, int oo) {
    set(BigInteger.valueOf(v).mod(p), out, oo);
  }

  @Override
  public void encode(BigInteger v, long[] out, int oo) {
    set(v.mod(p), out, oo);
  }

  @Override
  public BigInteger toBigInteger(long[] a, int ao) {
    return get(a, ao);
  }

  @Override
  public BigInteger decodeSigned(long[] a, int ao) {
    BigInteger x = get(a, ao);
    return x.compareTo(half) > 0 ? x.subtract(p) : x;
  }

  @Override
  public long decodeLong(long[] a, int ao) {
    BigInteger v = decodeSigned(a, ao);
    if (v.bitLength() > 63) {
      throw new ArithmeticException("field element does not fit in a signed 64-bit integer");
    }
    return v.longValue();
  }

  @Override
  public boolean equal(long[] a, int ao, long[] b, int bo) {
    int ia = ao * words;
    int ib = bo * words;
    for (int w = 0; w < words; w++) {
      if (a[ia + w] != b[ib + w]) {
        return false;
      }
    }
    return true;
  }

  /** Fields with the same modulus are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof BigPrimeField && ((BigPrimeField) o).p.equals(p);
  }

  @Override
  public int hashCode() {
    return p.hashCode();
  }

  @Override
  public String toString() {
    return name();
  }
}
