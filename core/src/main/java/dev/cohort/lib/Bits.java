package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Secret bits in bit-major layout: for a batch of n values of m bits, bit i of value j is element
 * {@code i * n + j}, so bit i of the whole batch is one slice and every bit-level step is one
 * vector operation, whatever n is.
 */
public final class Bits {

  private Bits() {}

  /** {@code n * m} random bits, bit-major. */
  public static SecretVector random(Numeric b, int n, int m) {
    return b.randomBits(n * m);
  }

  /** Bit {@code i} of every value of a bit-major batch of {@code n} values. */
  public static SecretVector bit(Numeric b, SecretVector bits, int n, int i) {
    return b.slice(bits, i * n, (i + 1) * n);
  }

  /** {@code sum over i < count of 2^i * bit(from + i)}: the values the bits spell. Local. */
  public static SecretVector compose(Numeric b, SecretVector bits, int n, int from, int count) {
    SecretVector rows =
        from == 0 && (long) count * n == bits.length()
            ? bits
            : b.slice(bits, from * n, (from + count) * n);
    BigInteger[] powers = new BigInteger[count];
    for (int i = 0; i < count; i++) {
      powers[i] = BigInteger.ONE.shiftLeft(i);
    }
    return b.sumRows(rows, n, powers);
  }

  /** n secret random integers uniform in [0, 2^bits), from random bits. */
  public static SecretVector randomInteger(Numeric b, int n, int bits) {
    return compose(b, random(b, n, bits), n, 0, bits);
  }

  /**
   * The public bits of n values mod 2^m given as ⌈m/64⌉ little-endian words each (as {@link
   * Numeric#openLowBits} yields them): {@code result[i][j]} is bit i of value j. With {@code
   * minusHalf}, the bits of (value − 2^(m−1)) mod 2^m, which differ in bit m − 1 only.
   */
  static long[][] publicBits(long[] words, int n, int m, boolean minusHalf) {
    int per = (m + 63) / 64;
    long[][] out = new long[m][n];
    for (int i = 0; i < m; i++) {
      long[] row = out[i];
      int w = i >>> 6;
      int shift = i & 63;
      for (int j = 0; j < n; j++) {
        row[j] = (words[j * per + w] >>> shift) & 1;
      }
    }
    if (minusHalf) {
      long[] top = out[m - 1];
      for (int j = 0; j < n; j++) {
        top[j] ^= 1;
      }
    }
    return out;
  }

  /**
   * The products r_(2p+1)·r_(2p) of the ⌊m/2⌋ pairs of adjacent random bits, for {@link
   * #lessThanPublic}: they do not depend on the compared value, so they are computed while the
   * masked value is being opened. One multiplication per pair, one round.
   */
  static SecretVector[] pairProducts(Numeric b, SecretVector rBits, int n, int m) {
    SecretVector[] products = new SecretVector[m / 2];
    for (int p = 0; p < m / 2; p++) {
      products[p] = b.mul(bit(b, rBits, n, 2 * p + 1), bit(b, rBits, n, 2 * p));
    }
    return products;
  }

  /**
   * [c < r] for public c (bits {@code c[i][j]}) and secret r (bit-major {@code rBits}), by a tree
   * over bit ranges carrying (less, equal): less = less_hi + equal_hi * less_lo and equal =
   * equal_hi * equal_lo. The leaves are pairs of bits: with c public and the product q = r_hi·r_lo
   * of {@link #pairProducts} given, both less and equal of a pair are linear in (r_hi, r_lo, q), so
   * the tree starts over ⌈m/2⌉ leaves: 2⌈m/2⌉ − 3 multiplications in ⌈log2 ⌈m/2⌉⌉ rounds (plus the
   * ⌊m/2⌋ pair products, computed before c is known), where a tree over bits took 2m − 3 in ⌈log2
   * m⌉.
   */
  static SecretVector lessThanPublic(
      Numeric b, long[][] c, SecretVector rBits, SecretVector[] pairs, int n, int m) {
    int groups = (m + 1) / 2;
    SecretVector[] less = new SecretVector[groups];
    SecretVector[] equal = new SecretVector[groups];
    for (int p = 0; p < m / 2; p++) {
      long[] ch = c[2 * p + 1];
      long[] cl = c[2 * p];
      long[][] lessCoefficients = new long[3][n];
      long[][] equalCoefficients = new long[4][n];
      for (int j = 0; j < n; j++) {
        long notH = 1 - ch[j];
        long notL = 1 - cl[j];
        long signH = 2 * ch[j] - 1;
        long signL = 2 * cl[j] - 1;
        // less = (1−c_h)·r_h + (1−c_h)(1−c_l)·r_l + (2c_h−1)(1−c_l)·q
        lessCoefficients[0][j] = notH;
        lessCoefficients[1][j] = notH * notL;
        lessCoefficients[2][j] = signH * notL;
        // equal = (1−c_h + (2c_h−1)·r_h)(1−c_l + (2c_l−1)·r_l), expanded with q = r_h·r_l
        equalCoefficients[0][j] = signH * notL;
        equalCoefficients[1][j] = notH * signL;
        equalCoefficients[2][j] = signH * signL;
        equalCoefficients[3][j] = notH * notL;
      }
      List<SecretVector> terms = List.of(rBits, rBits, pairs[p]);
      int[] rows = {2 * p + 1, 2 * p, 0};
      less[p] = b.linear(n, terms, rows, List.of(lessCoefficients), null);
      if (groups > 1) {
        equal[p] =
            b.linear(
                n, terms, rows, List.of(equalCoefficients).subList(0, 3), equalCoefficients[3]);
      }
    }
    if (m % 2 == 1) {
      long[] notC = new long[n];
      for (int j = 0; j < n; j++) {
        notC[j] = 1 - c[m - 1][j];
      }
      // (1 - c_i) r_i
      less[groups - 1] = b.linear(n, List.of(rBits), new int[] {m - 1}, List.of(notC), null);
      equal[groups - 1] = equalPublic(b, c[m - 1], rBits, n, m - 1);
    }
    return combineLess(b, less, equal);
  }

  /**
   * 1 − (c xor r) = r·(2c − 1) + (1 − c) for public bits c and the secret bits r of row {@code row}
   * of a bit-major batch of n values: local.
   */
  static SecretVector equalPublic(Numeric b, long[] c, SecretVector rBits, int n, int row) {
    long[] notC = new long[n];
    long[] twoCMinusOne = new long[n];
    for (int j = 0; j < n; j++) {
      notC[j] = 1 - c[j];
      twoCMinusOne[j] = 2 * c[j] - 1;
    }
    return b.linear(n, List.of(rBits), new int[] {row}, List.of(twoCMinusOne), notC);
  }

  /**
   * The Hamming distance Σ (c_i ⊕ r_i) between public bits c (rows {@code c[i]}) and secret
   * bit-major bits r, with c ⊕ r = c + r·(1 − 2c): local, in [0, m].
   */
  static SecretVector hammingPublic(Numeric b, long[][] c, SecretVector rBits, int n) {
    int m = c.length;
    List<long[]> signs = new ArrayList<>(m);
    List<SecretVector> terms = new ArrayList<>(m);
    int[] rows = new int[m];
    long[] ones = new long[n];
    for (int i = 0; i < m; i++) {
      long[] row = c[i];
      long[] sign = new long[n];
      for (int j = 0; j < n; j++) {
        sign[j] = 1 - 2 * row[j];
        ones[j] += row[j];
      }
      signs.add(sign);
      terms.add(rBits);
      rows[i] = i;
    }
    return b.linear(n, terms, rows, signs, ones);
  }

  /** Folds (less, equal) pairs from the least significant (index 0) up. */
  static SecretVector combineLess(Numeric b, SecretVector[] less, SecretVector[] equal) {
    int count = less.length;
    while (count > 1) {
      int half = count / 2;
      SecretVector[] nextLess = new SecretVector[(count + 1) / 2];
      SecretVector[] nextEqual = new SecretVector[(count + 1) / 2];
      for (int p = 0; p < half; p++) {
        int lo = 2 * p;
        int hi = lo + 1;
        nextLess[p] = b.add(less[hi], b.mul(equal[hi], less[lo]));
        if (count > 2) {
          nextEqual[p] = b.mul(equal[hi], equal[lo]);
        }
      }
      if (count % 2 == 1) {
        nextLess[half] = less[count - 1];
        nextEqual[half] = equal[count - 1];
      }
      less = nextLess;
      equal = nextEqual;
      count = nextLess.length;
    }
    return less[0];
  }

  /** The product of all {@code factors}, as a tree: ⌈log2 k⌉ rounds, k − 1 multiplications. */
  static SecretVector productTree(Numeric b, SecretVector[] factors) {
    int count = factors.length;
    while (count > 1) {
      SecretVector[] next = new SecretVector[(count + 1) / 2];
      for (int p = 0; p < count / 2; p++) {
        next[p] = b.mul(factors[2 * p], factors[2 * p + 1]);
      }
      if (count % 2 == 1) {
        next[count / 2] = factors[count - 1];
      }
      factors = next;
      count = next.length;
    }
    return factors[0];
  }
}
