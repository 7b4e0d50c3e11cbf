package dev.cohort.field;

import static dev.cohort.field.Limbs127.LIMB;
import static dev.cohort.field.Limbs127.P_HI;
import static dev.cohort.field.Limbs127.carry;
import static dev.cohort.field.Limbs127.foldLimbs;
import static dev.cohort.field.Limbs127.mulAddFolded;

import dev.cohort.field.SmallConstants127.Small;

/**
 * {@link Field#dealProducts} of {@link Mersenne127} in one pass: BGW's multiplication at threshold
 * one among three parties, where each dealer multiplies its two shares, keeps one share of the
 * product and sends one. Each product is made, used for both shares at once and dropped: no column
 * of products and no second and third pass over the factors' block, where the generic path ({@link
 * Field#mul}, then {@link Field#combine} twice) writes the products and reads them twice.
 *
 * <p>Invariant: the results are exactly those of the generic path. Sums mod p are exact, so summing
 * each share lazily (43-bit limbs, as {@link Mersenne127#linear}) and reducing it once gives the
 * canonical value the generic path gives. The kernel reads the seeded values {@code r} the caller
 * drew and draws nothing itself: the dealt polynomial is the same line through the weighted product
 * and the seeded share, uniformly random as before, and every pseudo-random stream is read in the
 * same order, so the parties stay in step.
 *
 * <p>It applies when the four dealing coefficients are ±k·2^s with k below {@link #FACTOR_BOUND}:
 * at n = 3 with the recombination weights folded in they are 3/2, −3/2, ±1, ±2 and 3 (see
 * ShamirSharing in suite-bgw), each a rotation of the 127 bits (for 1/2 = 2^126), an inversion of
 * them (for −) and a product of three 43-bit limbs by 3 at most, never a 128×128-bit product. Other
 * coefficients, and batches too short to classify them, take the generic path.
 *
 * <p>Measured ({@code LocalKernelBenchmark -p suite=bgw -p field=m127 -p threads=1}, 10^6
 * multiplications of all three parties, shared 2-core machine at load 4.4–5.6, alternating with the
 * build before): 124.9 and 126.5 ms where the three passes took 134.6 and 144.0. On blocks that
 * stay in the cache (2048 elements, the same block over and over) the one pass is no faster, 28–30
 * ns per element against 23–32 ns: the gain is the memory traffic of the product column and of the
 * factors, not arithmetic. A first version that folded each term into two words with carries
 * (instead of limbs) took 29–34 ns there.
 */
final class ProductDealing127 {

  /** Batches from this size on classify their coefficients, as {@link SmallConstants127} does. */
  static final int MIN_BATCH = 16;

  /**
   * The bound on a term's small factor k (see {@link Term}): a term adds below 2^43·k to a limb,
   * and a share sums three terms (the kept share's old value and two products), below 2^63 as
   * {@link Limbs127#foldLimbs} needs.
   */
  static final long FACTOR_BOUND = 1L << 18;

  private ProductDealing127() {}

  /**
   * A coefficient ±k·2^rotate (mod p) as the kernel applies it: x rotated left by {@code rotate}
   * within its 127 bits, its bits inverted when {@code negate} is all ones (−x = p − x), cut into
   * three 43-bit limbs and the limbs multiplied by k = odd·2^shift, below {@link #FACTOR_BOUND}.
   * BGW's 2 and −2 are shifts of the limbs, 3/2 = 3·2^126 a rotation and a factor 3; only odd
   * factors above one cost products (three 64-bit ones).
   */
  record Term(int rotate, long odd, int shift, long negate) {

    /** The term of {@code small}, or null when its factor is too large for the limb sums. */
    static Term of(Small small) {
      long u = small.u();
      int s = small.shift();
      if (u >= FACTOR_BOUND) {
        return null;
      }
      if (u == 0) {
        return new Term(0, 0, 0, 0);
      }
      long k = u << Math.min(s, 63);
      if (s < 18 && k < FACTOR_BOUND) { // a small integer: no rotation
        return new Term(0, u, s, small.negate());
      }
      return new Term(s, u, 0, small.negate());
    }
  }

  /**
   * {@link Field#dealProducts} over 2^127 − 1 when the coefficients are of the form {@link Small}
   * with factors below {@link #FACTOR_BOUND} and {@code n} is at least {@link #MIN_BATCH};
   * otherwise writes nothing and returns false.
   */
  static boolean dealProducts(
      long[] a,
      long[] b,
      int from,
      long[] r,
      long[][] coefficients,
      long[] acc,
      long[] out,
      int oo,
      int n) {
    if (n < MIN_BATCH) {
      return false;
    }
    Term[] terms = new Term[4];
    for (int j = 0; j < 4; j++) {
      long[] c = coefficients[j / 2];
      Small small = Small.of(c[2 * (j % 2)], c[2 * (j % 2) + 1]);
      terms[j] = small == null ? null : Term.of(small);
      if (terms[j] == null) {
        return false;
      }
    }
    deal(a, b, from, r, terms, acc, out, oo, n);
    return true;
  }

  /**
   * The loop of {@link #dealProducts}: per element the product, folded to 127 bits, and two shares
   * summed as limbs (see {@link #addTerm}), each folded and reduced once.
   */
  private static void deal(
      long[] a, long[] b, int from, long[] r, Term[] terms, long[] acc, long[] out, int oo, int n) {
    Term c0 = terms[0];
    Term c1 = terms[1];
    Term e0 = terms[2];
    Term e1 = terms[3];
    long[] sums = new long[6]; // kept share's limbs, sent share's limbs
    for (int i = 0; i < n; i++) {
      int ia = 2 * (from + i);
      int io = 2 * (oo + i);
      // d = a·b, folded below 2^128 − 1 into the sent share's slot, then to 127 bits: d ≤ p
      mulAddFolded(a[ia], a[ia + 1], b[ia], b[ia + 1], 0, 0, out, io);
      long f0 = out[io];
      long f1 = out[io + 1];
      long top = f1 >>> 63;
      long d0 = f0 + top;
      long d1 = (f1 & P_HI) + carry(f0, top, d0);
      long r0 = r[2 * i];
      long r1 = r[2 * i + 1];
      long k0 = acc[ia];
      long k1 = acc[ia + 1];
      sums[0] = k0 & LIMB;
      sums[1] = ((k0 >>> 43) | (k1 << 21)) & LIMB;
      sums[2] = k1 >>> 22;
      addTerm(d0, d1, c0, sums, 0);
      addTerm(r0, r1, c1, sums, 0);
      sums[3] = 0;
      sums[4] = 0;
      sums[5] = 0;
      addTerm(d0, d1, e0, sums, 3);
      addTerm(r0, r1, e1, sums, 3);
      foldLimbs(sums, 0, acc, ia);
      foldLimbs(sums, 3, out, io);
    }
  }

  /**
   * Adds ±k·2^rotate·x, for x below 2^127 (canonical, or p itself), to the limb sums at {@code
   * sums[s, s + 3)}, as three limbs below 2^43·k each. −x is p − x, x with its 127 bits inverted,
   * which for x = 0 is p ≡ 0: no care needed, as the sums are reduced at the end.
   */
  static void addTerm(long x0, long x1, Term t, long[] sums, int s) {
    int rotate = t.rotate;
    if (rotate != 0) {
      long y0 = rotateLow(x0, x1, rotate);
      x1 = rotateHigh(x0, x1, rotate);
      x0 = y0;
    }
    long negate = t.negate;
    x0 ^= negate;
    x1 ^= negate & P_HI;
    long l0 = x0 & LIMB;
    long l1 = ((x0 >>> 43) | (x1 << 21)) & LIMB;
    long l2 = x1 >>> 22;
    long odd = t.odd;
    if (odd != 1) {
      l0 *= odd;
      l1 *= odd;
      l2 *= odd;
    }
    int shift = t.shift;
    sums[s] += l0 << shift;
    sums[s + 1] += l1 << shift;
    sums[s + 2] += l2 << shift;
  }

  /**
   * The low word of x rotated left by {@code 0 < shift < 127} within its 127 bits, as {@link
   * Limbs127#rotateLeft}. The two words are two small methods so that {@link #addTerm} stays well
   * below C2's inlining limit of 325 bytes of bytecode: a term step of 328 bytes was called, not
   * inlined, per term.
   */
  private static long rotateLow(long x0, long x1, int shift) {
    int back = 127 - shift;
    long l0 = shift < 64 ? x0 << shift : 0;
    return l0 | (back < 64 ? (x0 >>> back) | (x1 << (64 - back)) : x1 >>> (back - 64));
  }

  /** The high word of x rotated left by {@code 0 < shift < 127} within its 127 bits. */
  private static long rotateHigh(long x0, long x1, int shift) {
    int back = 127 - shift;
    long l1 = (shift < 64 ? (x1 << shift) | (x0 >>> (64 - shift)) : x0 << (shift - 64)) & P_HI;
    return l1 | (back < 64 ? x1 >>> back : 0);
  }
}
