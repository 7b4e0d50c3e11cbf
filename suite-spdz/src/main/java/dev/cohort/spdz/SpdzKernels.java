package dev.cohort.spdz;

import static dev.cohort.field.Limbs127.P_HI;
import static dev.cohort.field.Limbs127.carry;
import static dev.cohort.field.Limbs127.reduce128;

import dev.cohort.field.Mersenne61;
import dev.cohort.suite.Shares;

/**
 * Fused kernels of the SPDZ online phase for the two Mersenne fields: each makes one pass over its
 * columns and reduces each output once, where the generic {@link dev.cohort.field.Field} calls make
 * one pass, and one full reduction, per operation. Outputs are canonical, like every kernel's.
 *
 * <p>2^61 − 1: a product of canonical values is folded once to below 2^62 ({@link #fold61}); up to
 * three folded products and a canonical value sum to below 2^64 unsigned, then one {@link
 * #finish61} makes the result canonical.
 *
 * <p>2^127 − 1: elements are two words, lo + hi·2^64. A <em>lazy</em> value is any two words below
 * 2^128 − 1, congruent to the result but not necessarily below p. {@link #mulAdd127} takes a lazy
 * addend and returns a lazy result, so a sum of products is a chain of multiply-adds with a single
 * canonical reduction ({@link #canonical127}) at the end. The sum of two canonical values (at most
 * 2p = 2^128 − 2) is lazy too.
 *
 * <p>Measured with {@code SpdzBenchmark.multiply} (3 parties in one JVM, in memory, n = 10^5, a
 * loaded 2-core machine), as the process CPU time per multiplication: over 2^127 − 1 these kernels
 * (with the branch-free subtraction now in {@code Mersenne127.sub}) took it from about 1550 ns to
 * about 1150 ns; the generic path had spent it in separate passes, full reductions and the
 * mispredicted borrow branch of {@code Mersenne127.sub}.
 *
 * <p>Why past 400 lines: each kernel is one SPDZ operation fused for both Mersenne fields, and the
 * two halves share the lazy-value conventions above; the word helpers themselves (carry, {@code
 * reduce128}) live in {@link dev.cohort.field.Limbs127}.
 */
final class SpdzKernels {

  private static final long P61 = Mersenne61.P;

  private SpdzKernels() {}

  // ---- 2^61 − 1 -------------------------------------------------------------------------------

  /** {@code a·b} for canonical a, b mod 2^61 − 1, folded once: congruent, below 2^62. */
  static long fold61(long a, long b) {
    long hi = Math.multiplyHigh(a, b); // < 2^58
    long lo = a * b;
    return ((hi << 3) | (lo >>> 61)) + (lo & P61);
  }

  /** The canonical value mod 2^61 − 1 of {@code x}, read as unsigned 64 bits. */
  static long finish61(long x) {
    long r = (x & P61) + (x >>> 61); // < 2^61 + 8
    return r >= P61 ? r - P61 : r;
  }

  /**
   * The Beaver combination over 2^61 − 1, both columns in one pass: with d at elements [0, m) of
   * {@code opened} and e at [m, 2m), {@code share = c + d·y + e·a} and {@code mac = c' + d·y' +
   * e·a'} (see {@link BeaverMultiply}): four products per element.
   */
  static void beaver61(
      long[] opened, int m, SpdzPreprocessing.Triples triple, Shares y, long[] share, long[] mac) {
    beaver61(opened, m, triple, y, share, mac, 0, m);
  }

  /** As above, on the elements [from, to) only. */
  static void beaver61(
      long[] opened,
      int m,
      SpdzPreprocessing.Triples triple,
      Shares y,
      long[] share,
      long[] mac,
      int from,
      int to) {
    long[] as = triple.a().share;
    long[] cs = triple.c().share;
    long[] am = triple.a().mac;
    long[] cm = triple.c().mac;
    long[] ys = y.share;
    long[] ym = y.mac;
    for (int i = from; i < to; i++) {
      long d = opened[i];
      long e = opened[m + i];
      // Sums of canonical values (< 2^61) and folded products (< 2^62) stay below 2^64 unsigned.
      share[i] = finish61(cs[i] + fold61(d, ys[i]) + fold61(e, as[i]));
      mac[i] = finish61(cm[i] + fold61(d, ym[i]) + fold61(e, am[i]));
    }
  }

  /**
   * The masked differences of a Beaver multiplication over 2^61 − 1 in one pass, branch-free (a
   * branch on the borrow mispredicts on random shares): {@code de} gets x − a at elements [0, m)
   * and y − b at [m, 2m) from word {@code deAt} (in a frame, say), {@code deMac} the same of the
   * MAC columns from word 0, on the elements [from, to) of x and y.
   */
  static void differences61(
      Shares x,
      Shares y,
      SpdzPreprocessing.Triples triple,
      int m,
      long[] de,
      int deAt,
      long[] deMac,
      int from,
      int to) {
    long[] xs = x.share;
    long[] xm = x.mac;
    long[] ys = y.share;
    long[] ym = y.mac;
    long[] as = triple.a().share;
    long[] am = triple.a().mac;
    long[] bs = triple.b().share;
    long[] bm = triple.b().mac;
    for (int i = from; i < to; i++) {
      de[deAt + i] = sub61(xs[i], as[i]);
      de[deAt + m + i] = sub61(ys[i], bs[i]);
      deMac[i] = sub61(xm[i], am[i]);
      deMac[m + i] = sub61(ym[i], bm[i]);
    }
  }

  /** {@code (a − b) mod p} for canonical a and b, branch-free. */
  private static long sub61(long a, long b) {
    long d = a - b;
    return d + ((d >> 63) & P61);
  }

  /**
   * {@code acc[0] += Σ r_j·v_j} and {@code acc[1] += Σ r_j·m_j} over {@code j < n}, reading {@code
   * values} and {@code macs} from element {@code from}: both sums of a MAC check in one pass.
   */
  static void macSums61(long[] r, long[] values, long[] macs, int from, int n, long[] acc) {
    long v = acc[0];
    long mu = acc[1];
    for (int j = 0; j < n; j++) {
      long rj = r[j];
      v = finish61(v + fold61(rj, values[from + j])); // < 2^61 + 2^62: no overflow
      mu = finish61(mu + fold61(rj, macs[from + j]));
    }
    acc[0] = v;
    acc[1] = mu;
  }

  /** {@code share = a + c} (at P0 only, else a copy of a) and {@code mac = a' + α·c}. */
  static void addPublic61(
      long[] aShare,
      long[] aMac,
      long[] c,
      int m,
      long alpha,
      boolean first,
      long[] share,
      long[] mac) {
    for (int i = 0; i < m; i++) {
      long ci = c[i];
      share[i] = first ? finish61(aShare[i] + ci) : aShare[i];
      mac[i] = finish61(aMac[i] + fold61(ci, alpha));
    }
  }

  /** Whether all of {@code a[0, n)} are canonical mod 2^61 − 1: one branch-free pass. */
  static boolean allCanonical61(long[] a, int off, int n) {
    long bad = 0;
    for (int i = off; i < off + n; i++) {
      long x = a[i];
      bad |= (x >>> 61) | ((x + 1) >>> 61); // x >= 2^61 (as unsigned), or x == p
    }
    return bad == 0;
  }

  /**
   * {@code sum = a + b} mod 2^61 − 1 on the elements i in [from, to): sum at i, a at {@code ao + i}
   * and b at {@code bo + i} (offsets in words, here elements), checking in the same pass that each
   * b is canonical (as {@link #allCanonical61}), a canonical. Returns false if one is not; {@code
   * sum} is then meaningless. {@code sum} may be {@code a} at offset 0.
   */
  static boolean addChecked61(long[] a, int ao, long[] b, int bo, long[] sum, int from, int to) {
    long bad = 0;
    for (int i = from; i < to; i++) {
      long x = b[bo + i];
      bad |= (x >>> 61) | ((x + 1) >>> 61);
      sum[i] = finish61(a[ao + i] + x); // < 2^62 when b is canonical
    }
    return bad == 0;
  }

  /**
   * {@code sum = a + b + c} mod 2^61 − 1 on the elements i in [from, to): sum at i, a, b and c at
   * {@code ao + i}, {@code bo + i} and {@code co + i}, checking in the same pass that each b and c
   * is canonical, a canonical. Returns false if one is not; {@code sum} is then meaningless. {@code
   * sum} may be {@code a} at offset 0.
   */
  static boolean addChecked61(
      long[] a, int ao, long[] b, int bo, long[] c, int co, long[] sum, int from, int to) {
    long bad = 0;
    for (int i = from; i < to; i++) {
      long x = b[bo + i];
      long y = c[co + i];
      bad |= (x >>> 61) | ((x + 1) >>> 61) | (y >>> 61) | ((y + 1) >>> 61);
      sum[i] = finish61(a[ao + i] + x + y); // < 2^63 when b and c are canonical
    }
    return bad == 0;
  }

  // ---- 2^127 − 1 ------------------------------------------------------------------------------

  private static final long LOW32 = 0xFFFF_FFFFL;

  /** Whether all of the n elements in {@code a} are canonical mod 2^127 − 1, branch-free. */
  static boolean allCanonical127(long[] a, int off, int n) {
    long bad = 0;
    for (int i = off; i < off + n; i++) {
      long lo = a[2 * i];
      long hi = a[2 * i + 1];
      long notP = (hi ^ P_HI) | ~lo; // zero exactly when the element is p
      bad |= (hi >>> 63) | (((notP | -notP) >>> 63) ^ 1);
    }
    return bad == 0;
  }

  /**
   * Writes {@code a·b + c}, lazy, to {@code out[o, o + 2)}: a and b canonical, c lazy. Then {@code
   * a·b + c <= (p − 1)^2 + 2^128 − 2 < 2^254}, so its bits above 127 and its low 127 bits are each
   * below 2^127 and one fold leaves at most 2^128 − 2. May write over c's words.
   */
  static void mulAdd127(long a0, long a1, long b0, long b1, long c0, long c1, long[] out, int o) {
    // Partial products; a1, b1 < 2^63, so only the a0 and b0 operands need the unsigned fix-up
    // of multiplyHigh (which reads a negative operand as x − 2^64).
    long lo00 = a0 * b0;
    long hi00 = Math.multiplyHigh(a0, b0) + ((a0 >> 63) & b0) + ((b0 >> 63) & a0);
    long lo01 = a0 * b1;
    long hi01 = Math.multiplyHigh(a0, b1) + ((a0 >> 63) & b1);
    long lo10 = a1 * b0;
    long hi10 = Math.multiplyHigh(a1, b0) + ((b0 >> 63) & a1);
    long lo11 = a1 * b1;
    long hi11 = Math.multiplyHigh(a1, b1);

    long w0 = lo00 + c0; // column 0
    long k = carry(lo00, c0, w0);
    long t = hi00 + lo01; // column 1, up to four carries out
    long k1 = carry(hi00, lo01, t);
    long w1 = t + lo10;
    k1 += carry(t, lo10, w1);
    t = w1 + c1;
    k1 += carry(w1, c1, t);
    w1 = t + k;
    k1 += carry(t, k, w1);
    t = hi01 + hi10; // column 2: hi01, hi10 < 2^63, so this sum cannot carry
    long w2 = t + lo11;
    long k2 = carry(t, lo11, w2);
    t = w2 + k1;
    k2 += carry(w2, k1, t);
    w2 = t;
    long w3 = hi11 + k2; // column 3: the total is < 2^254, nothing carries out

    // x = L + H·2^127 ≡ L + H (mod p), L = x mod 2^127, H = x >>> 127.
    long h0 = (w1 >>> 63) | (w2 << 1);
    long h1 = (w2 >>> 63) | (w3 << 1);
    long s0 = w0 + h0;
    out[o] = s0;
    out[o + 1] = (w1 & P_HI) + h1 + carry(w0, h0, s0); // both < 2^63: no overflow
  }

  /**
   * Writes {@code (a − b) mod p}, canonical, to {@code out[o, o + 2)} for canonical a and b,
   * branch-free (a branch on the borrow mispredicts on random shares).
   */
  private static void sub127(long a0, long a1, long b0, long b1, long[] out, int o) {
    long d0 = a0 - b0;
    long borrow = ((~a0 & b0) | (~(a0 ^ b0) & d0)) >>> 63;
    long d1 = a1 - b1 - borrow;
    long mask = d1 >> 63; // negative exactly when a < b (both high words are below 2^63): add p
    long r0 = d0 + mask; // the low word of p is all ones: d0 + (−1 & mask)
    out[o] = r0;
    out[o + 1] = d1 + (P_HI & mask) + carry(d0, mask, r0);
  }

  /**
   * The masked differences of a Beaver multiplication over 2^127 − 1 in one pass: {@code de} gets x
   * − a at elements [0, m) and y − b at [m, 2m), {@code deMac} the same of the MAC columns.
   */
  static void differences127(
      Shares x, Shares y, SpdzPreprocessing.Triples triple, int m, long[] de, long[] deMac) {
    differences127(x, y, triple, m, de, 0, deMac, 0, m);
  }

  /**
   * As above, on the elements [from, to) of x and y only, with {@code de}'s elements from word
   * {@code deAt} (in a frame, say; any word, aligned to elements or not).
   */
  static void differences127(
      Shares x,
      Shares y,
      SpdzPreprocessing.Triples triple,
      int m,
      long[] de,
      int deAt,
      long[] deMac,
      int from,
      int to) {
    long[] xs = x.share;
    long[] xm = x.mac;
    long[] ys = y.share;
    long[] ym = y.mac;
    long[] as = triple.a().share;
    long[] am = triple.a().mac;
    long[] bs = triple.b().share;
    long[] bm = triple.b().mac;
    for (int i = from; i < to; i++) {
      int o = 2 * i;
      int oe = 2 * (m + i);
      sub127(xs[o], xs[o + 1], as[o], as[o + 1], de, deAt + o);
      sub127(ys[o], ys[o + 1], bs[o], bs[o + 1], de, deAt + oe);
      sub127(xm[o], xm[o + 1], am[o], am[o + 1], deMac, o);
      sub127(ym[o], ym[o + 1], bm[o], bm[o + 1], deMac, oe);
    }
  }

  /**
   * {@code sum = a + b} mod 2^127 − 1 on the elements i in [from, to): sum at element i, a and b at
   * words {@code ao + 2i} and {@code bo + 2i} (offsets in words: a frame's elements need not lie on
   * the element grid), checking in the same pass that each b is canonical (as {@link
   * #allCanonical127}), a canonical. Returns false if one is not; {@code sum} is then meaningless.
   * {@code sum} may be {@code a} at offset 0.
   */
  static boolean addChecked127(long[] a, int ao, long[] b, int bo, long[] sum, int from, int to) {
    long bad = 0;
    for (int i = from; i < to; i++) {
      int o = 2 * i;
      long a0 = a[ao + o];
      long b0 = b[bo + o];
      long b1 = b[bo + o + 1];
      long notP = (b1 ^ P_HI) | ~b0; // zero exactly when b is p
      bad |= (b1 >>> 63) | (((notP | -notP) >>> 63) ^ 1);
      long s0 = a0 + b0;
      long s1 = a[ao + o + 1] + b1 + carry(a0, b0, s0); // <= 2p < 2^128 − 1 when b is canonical
      reduce128(s0, s1, sum, o);
    }
    return bad == 0;
  }

  /**
   * {@code sum = a + b + c} mod 2^127 − 1 on the elements i in [from, to): sum at element i, a, b
   * and c at words {@code ao + 2i}, {@code bo + 2i} and {@code co + 2i}, checking in the same pass
   * that each b and c is canonical, a canonical. Returns false if one is not; {@code sum} is then
   * meaningless. {@code sum} may be {@code a} at offset 0. The opening of 3 parties in one pass
   * instead of one pass per peer: the sum is read and written once.
   */
  static boolean addChecked127(
      long[] a, int ao, long[] b, int bo, long[] c, int co, long[] sum, int from, int to) {
    long bad = 0;
    for (int i = from; i < to; i++) {
      int o = 2 * i;
      long b0 = b[bo + o];
      long b1 = b[bo + o + 1];
      long c0 = c[co + o];
      long c1 = c[co + o + 1];
      long notB = (b1 ^ P_HI) | ~b0; // zero exactly when b is p
      long notC = (c1 ^ P_HI) | ~c0;
      bad |= ((b1 | c1) >>> 63) | ((((notB | -notB) & (notC | -notC)) >>> 63) ^ 1);
      long u0 = b0 + c0; // u = b + c <= 2p − 2 < 2^128 − 1
      long u1 = b1 + c1 + carry(b0, c0, u0);
      long top = u1 >>> 63; // v = (u mod 2^127) + (u >>> 127) <= p
      long v0 = u0 + top;
      long v1 = (u1 & P_HI) + carry(u0, top, v0);
      long a0 = a[ao + o];
      long s0 = a0 + v0;
      long s1 = a[ao + o + 1] + v1 + carry(a0, v0, s0); // a + v <= 2p − 1 < 2^128 − 1
      reduce128(s0, s1, sum, o);
    }
    return bad == 0;
  }

  /** Makes the lazy value at {@code x[o, o + 2)} canonical, in place. */
  static void canonical127(long[] x, int o) {
    reduce128(x[o], x[o + 1], x, o);
  }

  /**
   * Elements per block of {@link #beaver127}: the block's d and e stay in L1 for both columns (and
   * from their sum to their use, in {@link BeaverMultiply}).
   */
  static final int BEAVER_BLOCK = 512;

  /**
   * The Beaver combination over 2^127 − 1: with d at elements [0, m) of {@code opened} and e at [m,
   * 2m), {@code share = c + d·y + e·a} and {@code mac = c' + d·y' + e·a'} (see {@link
   * BeaverMultiply}): four products per element, and each output is one exact sum reduced once
   * ({@link #dotAdd127}). A block of elements at a time, one column after the other.
   */
  static void beaver127(
      long[] opened, int m, SpdzPreprocessing.Triples triple, Shares y, long[] share, long[] mac) {
    for (int from = 0; from < m; from += BEAVER_BLOCK) {
      beaver127(opened, m, triple, y, share, mac, from, Math.min(m, from + BEAVER_BLOCK));
    }
  }

  /** As above, on the elements [from, to) only: one block. */
  static void beaver127(
      long[] opened,
      int m,
      SpdzPreprocessing.Triples triple,
      Shares y,
      long[] share,
      long[] mac,
      int from,
      int to) {
    dotAdd127(opened, m, y.share, triple.a().share, triple.c().share, share, from, to);
    dotAdd127(opened, m, y.mac, triple.a().mac, triple.c().mac, mac, from, to);
  }

  /**
   * {@code out = (d·y + e·a + c) mod p}, canonical, on elements [from, to), with d and e as in
   * {@link #beaver127}, for canonical inputs. One method with the loop inside: split into helpers,
   * the body outgrows what the JIT inlines.
   *
   * <p>With 2^128 ≡ 2 (mod p) the eight partial products fold at once into S = A + B·2^64: the
   * words at 2^128 count twice at 2^0, those at 2^192 twice at 2^64. A and B are summed as 32-bit
   * halves, which cannot carry into each other (each half sum stays below 2^37), and the carries
   * propagate once; S < 2^133 then folds at bit 127 into a lazy value. The sums are ALU work, not
   * multiplies (the sixteen multiplications alone take about a quarter of the time):
   * carry-propagating adds of a four-word product sum took 17–18 ns per element and column, this 14
   * (in cache, one thread).
   */
  private static void dotAdd127(
      long[] opened, int m, long[] y, long[] a, long[] c, long[] out, int from, int to) {
    for (int i = from; i < to; i++) {
      int o = 2 * i;
      long d0 = opened[o];
      long d1 = opened[o + 1];
      long e0 = opened[2 * m + o];
      long e1 = opened[2 * m + o + 1];
      long y0 = y[o];
      long y1 = y[o + 1];
      long a0 = a[o];
      long a1 = a[o + 1];
      // Partial products; the high words are below 2^63, so only the low words need the unsigned
      // fix-up of multiplyHigh (which reads a negative operand as x − 2^64).
      long sd = d0 >> 63;
      long sy = y0 >> 63;
      long se = e0 >> 63;
      long sa = a0 >> 63;
      long p00 = d0 * y0;
      long q00 = Math.multiplyHigh(d0, y0) + (sd & y0) + (sy & d0);
      long p01 = d0 * y1;
      long p10 = d1 * y0;
      long p11 = d1 * y1;
      long r00 = e0 * a0;
      long s00 = Math.multiplyHigh(e0, a0) + (se & a0) + (sa & e0);
      long r01 = e0 * a1;
      long r10 = e1 * a0;
      long r11 = e1 * a1;
      // High words of products with a high word (one factor below 2^63) are below 2^63, so each
      // pair sums without a carry; those of two high words are below 2^62.
      long hd = Math.multiplyHigh(d0, y1) + (sd & y1) + Math.multiplyHigh(d1, y0) + (sy & d1);
      long he = Math.multiplyHigh(e0, a1) + (se & a1) + Math.multiplyHigh(e1, a0) + (sa & e1);
      long h3 = Math.multiplyHigh(d1, y1) + Math.multiplyHigh(e1, a1); // at 2^192
      long c0 = c[o];
      long c1 = c[o + 1];

      // A = p00 + r00 + c0 + 2·(hd + he + p11 + r11)
      // B = q00 + s00 + p01 + p10 + r01 + r10 + c1 + 2·h3
      long twiceLo = (hd & LOW32) + (he & LOW32) + (p11 & LOW32) + (r11 & LOW32);
      long twiceHi = (hd >>> 32) + (he >>> 32) + (p11 >>> 32) + (r11 >>> 32);
      long aLo = (p00 & LOW32) + (r00 & LOW32) + (c0 & LOW32) + (twiceLo << 1);
      long aHi = (p00 >>> 32) + (r00 >>> 32) + (c0 >>> 32) + (twiceHi << 1);
      long bLo =
          (q00 & LOW32)
              + (s00 & LOW32)
              + (p01 & LOW32)
              + (p10 & LOW32)
              + (r01 & LOW32)
              + (r10 & LOW32)
              + (c1 & LOW32)
              + ((h3 & LOW32) << 1);
      long bHi =
          (q00 >>> 32)
              + (s00 >>> 32)
              + (p01 >>> 32)
              + (p10 >>> 32)
              + (r01 >>> 32)
              + (r10 >>> 32)
              + (c1 >>> 32)
              + ((h3 >>> 32) << 1);
      long t = (aLo >>> 32) + aHi; // S = w0 + w1·2^64 + (t >>> 32)·2^128
      long w0 = (aLo & LOW32) | (t << 32);
      t = (t >>> 32) + bLo;
      long lo = t & LOW32;
      t = (t >>> 32) + bHi;
      long w1 = lo | (t << 32);
      // S ≡ (S mod 2^127) + bit 127 + 2·(t >>> 32), which is below 2^127 + 2^6: lazy
      long h = (w1 >>> 63) + ((t >>> 32) << 1);
      long f0 = w0 + h;
      reduce128(f0, (w1 & P_HI) + carry(w0, h, f0), out, o);
    }
  }

  /**
   * {@code acc[0, 2) += Σ r_j·v_j} and {@code acc[2, 4) += Σ r_j·m_j} over {@code j < n}, reading
   * {@code values} and {@code macs} from element {@code from}, with coefficients below 2^64 (one
   * word each, read as unsigned; see {@link MacCheck}): a product r·x is two 64-bit products, not
   * four. At most 2^30 terms per call; {@code acc} is canonical before and after.
   *
   * <p>The words of each product go to sums of their 32-bit halves, six per column, with no carry
   * between them (a sum gains below 2^33 per term), and carries propagate once at the end: the
   * carry-propagating adds of a four-word sum cost about twice as much per term.
   *
   * <p>Both columns in one loop, each coefficient read once: the two columns, written a round
   * earlier, are no longer in cache when a check reads them, and two streams read side by side took
   * 15.5 ns per multiplication (its d and e, both columns) where one column after the other took 36
   * (10^5 multiplications over 2^127 − 1, one thread; 10.5 and 12 ns in cache).
   */
  static void macSumsShort127(long[] r, long[] values, long[] macs, int from, int n, long[] acc) {
    long va0 = 0; // halves at bit 0, 32, 64, ..., 160 of Σ r_j·v_j
    long va1 = 0;
    long vb0 = 0;
    long vb1 = 0;
    long vc0 = 0;
    long vc1 = 0;
    long ma0 = 0; // the same of Σ r_j·m_j
    long ma1 = 0;
    long mb0 = 0;
    long mb1 = 0;
    long mc0 = 0;
    long mc1 = 0;
    for (int j = 0; j < n; j++) {
      long rj = r[j];
      long sr = rj >> 63;
      int i = 2 * (from + j);
      // r·x = lo0 + (hi0 + lo1)·2^64 + hi1·2^128 for x = x0 + x1·2^64, x1 < 2^63; multiplyHigh
      // reads a word ≥ 2^63 as w − 2^64
      long x0 = values[i];
      long x1 = values[i + 1];
      long lo0 = x0 * rj;
      long hi0 = Math.multiplyHigh(x0, rj) + ((x0 >> 63) & rj) + (sr & x0);
      long lo1 = x1 * rj;
      long hi1 = Math.multiplyHigh(x1, rj) + (sr & x1);
      va0 += lo0 & LOW32;
      va1 += lo0 >>> 32;
      vb0 += (hi0 & LOW32) + (lo1 & LOW32);
      vb1 += (hi0 >>> 32) + (lo1 >>> 32);
      vc0 += hi1 & LOW32;
      vc1 += hi1 >>> 32;
      x0 = macs[i];
      x1 = macs[i + 1];
      lo0 = x0 * rj;
      hi0 = Math.multiplyHigh(x0, rj) + ((x0 >> 63) & rj) + (sr & x0);
      lo1 = x1 * rj;
      hi1 = Math.multiplyHigh(x1, rj) + (sr & x1);
      ma0 += lo0 & LOW32;
      ma1 += lo0 >>> 32;
      mb0 += (hi0 & LOW32) + (lo1 & LOW32);
      mb1 += (hi0 >>> 32) + (lo1 >>> 32);
      mc0 += hi1 & LOW32;
      mc1 += hi1 >>> 32;
    }
    addHalves(va0, va1, vb0, vb1, vc0, vc1, acc, 0);
    addHalves(ma0, ma1, mb0, mb1, mc0, mc1, acc, 2);
  }

  /**
   * {@code acc[o, o + 2) = (acc + w) mod p} for canonical acc and the sums of 32-bit halves of
   * {@link #macSumsShort127}: {@code a0} at bit 0, {@code a1} at bit 32, ..., {@code c1} at bit
   * 160, each below 2^63.
   */
  private static void addHalves(
      long a0, long a1, long b0, long b1, long c0, long c1, long[] acc, int o) {
    long t = (a0 >>> 32) + a1; // propagate the carries into four words
    long w0 = (a0 & LOW32) | (t << 32);
    t = (t >>> 32) + b0;
    long lo = t & LOW32;
    t = (t >>> 32) + b1;
    long w1 = lo | (t << 32);
    t = (t >>> 32) + c0;
    lo = t & LOW32;
    t = (t >>> 32) + c1;
    long w2 = lo | (t << 32);
    foldInto127(w0, w1, w2, t >>> 32, acc, o);
  }

  /**
   * {@code acc[o, o + 2) = (acc + w) mod p} for canonical acc and w = w0 + .. + w3·2^192 < 2^254.
   */
  private static void foldInto127(long w0, long w1, long w2, long w3, long[] acc, int o) {
    // w ≡ (w mod 2^127) + (w >>> 127), each below 2^127: s <= 2^128 − 2
    long h0 = (w1 >>> 63) | (w2 << 1);
    long h1 = (w2 >>> 63) | (w3 << 1);
    long s0 = w0 + h0;
    long s1 = (w1 & P_HI) + h1 + carry(w0, h0, s0);
    long top = s1 >>> 63; // s folded once more: f <= p, so acc + f <= 2p − 1 < 2^128 − 1
    long f0 = s0 + top;
    long f1 = (s1 & P_HI) + carry(s0, top, f0);
    long a0 = acc[o];
    long t0 = a0 + f0;
    reduce128(t0, acc[o + 1] + f1 + carry(a0, f0, t0), acc, o);
  }

  /** {@code share = a + c} (at P0 only, else a copy of a) and {@code mac = a' + α·c}. */
  static void addPublic127(
      long[] aShare,
      long[] aMac,
      long[] c,
      int m,
      long[] alpha,
      boolean first,
      long[] share,
      long[] mac) {
    long al0 = alpha[0];
    long al1 = alpha[1];
    long keep = first ? -1L : 0L;
    for (int i = 0; i < m; i++) {
      int o = 2 * i;
      long c0 = c[o];
      long c1 = c[o + 1];
      long a0 = aShare[o];
      long x0 = c0 & keep;
      long s0 = a0 + x0;
      share[o] = s0;
      share[o + 1] = aShare[o + 1] + (c1 & keep) + carry(a0, x0, s0); // <= 2p: lazy
      canonical127(share, o);
      mulAdd127(c0, c1, al0, al1, aMac[o], aMac[o + 1], mac, o);
      canonical127(mac, o);
    }
  }
}
