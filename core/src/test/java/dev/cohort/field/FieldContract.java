package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.random.Prg;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;
import java.util.function.UnaryOperator;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Properties every {@link Field} must satisfy, checked against {@link BigInteger} arithmetic mod p.
 * Subclasses name the field. Arrays are packed and unpacked here, independently of the field's own
 * conversions, and every slot a kernel must not touch holds a sentinel that is checked after the
 * call.
 */
abstract class FieldContract {

  static final long SENTINEL = 0x5A5A_5A5A_5A5A_5A5AL;

  abstract Field field();

  BigInteger p() {
    return field().modulus();
  }

  /** A batch of {@code n} pairs with element offsets for a, b and the output. */
  record Batch(List<BigInteger> a, List<BigInteger> b, int ao, int bo, int oo) {
    int n() {
      return a.size();
    }
  }

  // ---- generators ----------------------------------------------------------------------------

  @Provide
  Arbitrary<BigInteger> elements() {
    BigInteger p = p();
    List<BigInteger> edges = new ArrayList<>();
    BigInteger two = BigInteger.TWO;
    for (BigInteger v :
        List.of(
            BigInteger.ZERO,
            BigInteger.ONE,
            two,
            p.subtract(BigInteger.ONE),
            p.subtract(two),
            p.shiftRight(1),
            p.shiftRight(1).add(BigInteger.ONE))) {
      edges.add(v);
    }
    for (int k : new int[] {31, 32, 60, 61, 62, 63, 64, 65, 125, 126, 127, 128}) {
      BigInteger pk = BigInteger.ONE.shiftLeft(k);
      edges.add(pk.subtract(BigInteger.ONE));
      edges.add(pk);
      edges.add(p.subtract(pk)); // high bits all set, low bits not
    }
    edges.removeIf(v -> v.signum() < 0 || v.compareTo(p) >= 0);
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.of(edges)),
        Tuple.of(
            3, Arbitraries.bigIntegers().between(BigInteger.ZERO, p.subtract(BigInteger.ONE))));
  }

  @Provide
  Arbitrary<Batch> batches() {
    Arbitrary<Integer> sizes =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.of(0, 1)), Tuple.of(4, Arbitraries.integers().between(0, 41)));
    Arbitrary<Integer> offsets = Arbitraries.integers().between(0, 3);
    return sizes.flatMap(
        n ->
            Combinators.combine(
                    elements().list().ofSize(n),
                    elements().list().ofSize(n),
                    offsets,
                    offsets,
                    offsets)
                .as(Batch::new));
  }

  // ---- packing, independent of the field's own conversions -----------------------------------

  /** {@code values} at element offset {@code offset}, sentinels before and one element after. */
  long[] pack(List<BigInteger> values, int offset) {
    int w = field().words();
    long[] a = sentinels(offset + values.size() + 1);
    for (int i = 0; i < values.size(); i++) {
      for (int k = 0; k < w; k++) {
        a[(offset + i) * w + k] = values.get(i).shiftRight(64 * k).longValue();
      }
    }
    return a;
  }

  long[] sentinels(int elements) {
    long[] a = new long[elements * field().words()];
    java.util.Arrays.fill(a, SENTINEL);
    return a;
  }

  BigInteger unpack(long[] a, int element) {
    int w = field().words();
    BigInteger v = BigInteger.ZERO;
    for (int k = w - 1; k >= 0; k--) {
      v = v.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(a[element * w + k])));
    }
    return v;
  }

  /** Asserts that the elements outside {@code [from, from + n)} still hold the sentinel. */
  void assertUntouchedOutside(long[] a, int from, int n) {
    int w = field().words();
    for (int i = 0; i < a.length; i++) {
      if (i < from * w || i >= (from + n) * w) {
        assertEquals(SENTINEL, a[i], "word " + i + " outside the output range was written");
      }
    }
  }

  void assertElements(List<BigInteger> expected, long[] out, int oo) {
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), unpack(out, oo + i), "element " + i);
    }
    assertUntouchedOutside(out, oo, expected.size());
  }

  List<BigInteger> zip(Batch batch, BinaryOperator<BigInteger> op) {
    List<BigInteger> r = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      r.add(op.apply(batch.a().get(i), batch.b().get(i)).mod(p()));
    }
    return r;
  }

  List<BigInteger> map(List<BigInteger> xs, UnaryOperator<BigInteger> op) {
    List<BigInteger> r = new ArrayList<>();
    for (BigInteger x : xs) {
      r.add(op.apply(x).mod(p()));
    }
    return r;
  }

  interface BinaryKernel {
    void apply(long[] a, int ao, long[] b, int bo, long[] out, int oo, int n);
  }

  void checkBinary(Batch batch, BinaryKernel kernel, BinaryOperator<BigInteger> op) {
    long[] a = pack(batch.a(), batch.ao());
    long[] b = pack(batch.b(), batch.bo());
    long[] aCopy = a.clone();
    long[] bCopy = b.clone();
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    kernel.apply(a, batch.ao(), b, batch.bo(), out, batch.oo(), batch.n());
    assertElements(zip(batch, op), out, batch.oo());
    assertArrayEquals(aCopy, a, "input a was modified");
    assertArrayEquals(bCopy, b, "input b was modified");
  }

  // ---- element-wise kernels ------------------------------------------------------------------

  @Property(seed = "42")
  void add_randomBatch_matchesBigInteger(@ForAll("batches") Batch batch) {
    checkBinary(batch, field()::add, BigInteger::add);
  }

  @Property(seed = "42")
  void sub_randomBatch_matchesBigInteger(@ForAll("batches") Batch batch) {
    checkBinary(batch, field()::sub, BigInteger::subtract);
  }

  @Property(seed = "42")
  void mul_randomBatch_matchesBigInteger(@ForAll("batches") Batch batch) {
    checkBinary(batch, field()::mul, BigInteger::multiply);
  }

  @Property(seed = "42")
  void mul_bySignsZeroOneMinusOne_matchesBigInteger(
      @ForAll("batches") Batch batch, @ForAll long pattern) {
    // Fields may select instead of multiplying when every factor is 0, 1 or −1 (public bits).
    List<BigInteger> signs = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      signs.add(BigInteger.valueOf(Math.floorMod(pattern >>> (2 * (i % 32)), 3) - 1).mod(p()));
    }
    long[] a = pack(batch.a(), batch.ao());
    long[] b = pack(signs, batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().mul(a, batch.ao(), b, batch.bo(), out, batch.oo(), batch.n());
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      expected.add(batch.a().get(i).multiply(signs.get(i)).mod(p()));
    }
    assertElements(expected, out, batch.oo());
  }

  @Property(seed = "42")
  void mul_signsThenOtherFactors_matchesBigInteger(
      @ForAll("batches") Batch batch, @ForAll long pattern, @ForAll int cut) {
    // A select for a prefix of 0, 1 and −1 must hand the rest to the general product.
    List<BigInteger> factors = new ArrayList<>(batch.b());
    int prefix = batch.n() == 0 ? 0 : Math.floorMod(cut, batch.n());
    for (int i = 0; i < prefix; i++) {
      factors.set(i, BigInteger.valueOf(Math.floorMod(pattern >>> (2 * (i % 32)), 3) - 1).mod(p()));
    }
    long[] a = pack(batch.a(), batch.ao());
    long[] b = pack(factors, batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().mul(a, batch.ao(), b, batch.bo(), out, batch.oo(), batch.n());
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      expected.add(batch.a().get(i).multiply(factors.get(i)).mod(p()));
    }
    assertElements(expected, out, batch.oo());
  }

  @Property(seed = "42")
  void negate_randomBatch_matchesBigInteger(@ForAll("batches") Batch batch) {
    long[] a = pack(batch.a(), batch.ao());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().negate(a, batch.ao(), out, batch.oo(), batch.n());
    assertElements(map(batch.a(), BigInteger::negate), out, batch.oo());
  }

  @Property(seed = "42")
  void negateWhere_randomBitsAndFlip_matchesBigInteger(
      @ForAll("batches") Batch batch,
      @ForAll long bitsLo,
      @ForAll long bitsHi,
      @ForAll @IntRange(min = 0, max = 63) int from,
      @ForAll boolean flip) {
    long[] bits = {bitsLo, bitsHi}; // n ≤ 41 and from ≤ 63: every bit index is below 128
    long[] a = pack(batch.a(), batch.ao());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().negateWhere(bits, from, flip, a, batch.ao(), out, batch.oo(), batch.n());
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      int at = from + i;
      boolean set = (((bits[at >>> 6] >>> (at & 63)) & 1) == 1) != flip;
      expected.add(set ? batch.a().get(i).negate().mod(p()) : batch.a().get(i));
    }
    assertElements(expected, out, batch.oo());
  }

  @Property(seed = "42")
  void scale_randomBatch_matchesBigInteger(
      @ForAll("batches") Batch batch, @ForAll("elements") BigInteger c) {
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().scale(a, batch.ao(), cs, batch.bo(), out, batch.oo(), batch.n());
    assertElements(map(batch.a(), x -> x.multiply(c)), out, batch.oo());
  }

  @Property(seed = "42")
  void scale_powerOfTwo_matchesBigInteger(
      @ForAll("batches") Batch batch, @ForAll @IntRange(min = 0, max = 200) int power) {
    // Fields may rotate instead of multiplying by 2^s (Mersenne primes); 2^s mod p for s past the
    // bit length is a power of two again there, and an ordinary constant elsewhere.
    BigInteger c = BigInteger.ONE.shiftLeft(power).mod(p());
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().scale(a, batch.ao(), cs, batch.bo(), out, batch.oo(), batch.n());
    assertElements(map(batch.a(), x -> x.multiply(c)), out, batch.oo());
  }

  @Property(seed = "42")
  void scale_smallConstant_matchesBigInteger(
      @ForAll("batches") Batch batch,
      @ForAll @LongRange(min = 0, max = 1L << 40) long k,
      @ForAll boolean negative) {
    // Fields may multiply by a small constant or its negation with fewer partial products.
    BigInteger c = BigInteger.valueOf(negative ? -k : k).mod(p());
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().scale(a, batch.ao(), cs, batch.bo(), out, batch.oo(), batch.n());
    assertElements(map(batch.a(), x -> x.multiply(c)), out, batch.oo());
  }

  @Property(seed = "42")
  void scaleAdd_randomBatch_matchesBigInteger(
      @ForAll("batches") Batch batch, @ForAll("elements") BigInteger c) {
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.oo());
    long[] acc = pack(batch.b(), batch.bo());
    field().scaleAdd(a, batch.ao(), cs, batch.oo(), acc, batch.bo(), batch.n());
    assertElements(zip(batch, (x, y) -> x.multiply(c).add(y)), acc, batch.bo());
  }

  @Property(seed = "42")
  void combine_oneToSevenTerms_matchesBigInteger(
      @ForAll("batches") Batch batch,
      @ForAll("elements") BigInteger c,
      @ForAll @IntRange(min = 1, max = 7) int k,
      @ForAll boolean accumulate) {
    // Terms: a, b, a + b, a·c, ... (k of them); coefficients c, c + 1, ..., all from the batch.
    List<List<BigInteger>> terms = new ArrayList<>();
    for (int j = 0; j < k; j++) {
      int shift = j;
      terms.add(zip(batch, (x, y) -> x.multiply(BigInteger.valueOf(shift)).add(y).add(c).mod(p())));
    }
    long[][] packed = new long[k][];
    long[] cs = field().alloc(k);
    for (int j = 0; j < k; j++) {
      packed[j] = pack(terms.get(j), 0);
      field().encode(c.add(BigInteger.valueOf(j)).mod(p()), cs, j);
    }
    long[] out = pack(batch.a(), batch.oo());
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      BigInteger e = accumulate ? batch.a().get(i) : BigInteger.ZERO;
      for (int j = 0; j < k; j++) {
        e = e.add(terms.get(j).get(i).multiply(c.add(BigInteger.valueOf(j))));
      }
      expected.add(e.mod(p()));
    }
    field().combine(packed, cs, out, batch.oo(), batch.n(), accumulate);
    assertElements(expected, out, batch.oo());
  }

  /** Products dealt at threshold one: the kept share accumulated, the sent share written. */
  @Property(seed = "42")
  void dealProducts_matchesBigInteger(
      @ForAll("batches") Batch batch,
      @ForAll("elements") BigInteger c0,
      @ForAll("elements") BigInteger c1,
      @ForAll("elements") BigInteger e0,
      @ForAll("elements") BigInteger e1) {
    List<BigInteger> r = zip(batch, (x, y) -> x.add(y.multiply(c1)).add(e0));
    List<BigInteger> kept = zip(batch, (x, y) -> y.subtract(x).add(c0));
    checkDealProducts(
        batch.a(), batch.b(), r, kept, List.of(c0, c1, e0, e1), batch.ao(), batch.oo());
  }

  /** Every operand and coefficient p − 1 (or 0, or 1): the largest and smallest intermediates. */
  @Example
  void dealProducts_edgeValues_matchesBigInteger() {
    for (BigInteger v : List.of(p().subtract(BigInteger.ONE), BigInteger.ZERO, BigInteger.ONE)) {
      List<BigInteger> vs = List.of(v, v, v, v, v);
      List<BigInteger> mixed =
          List.of(v, BigInteger.ONE, p().subtract(BigInteger.ONE), BigInteger.ZERO, v);
      checkDealProducts(vs, vs, vs, vs, List.of(v, v, v, v), 1, 2);
      checkDealProducts(vs, mixed, mixed, vs, List.of(v, BigInteger.ONE, v, v), 0, 0);
    }
  }

  /**
   * Coefficients ±u·2^s (BGW's at n = 3 are of this form), by which 2^127 − 1 multiplies without a
   * general product; long batches, so that it classifies them.
   */
  @Property(seed = "42")
  void dealProducts_smallFactors_matchesBigInteger(
      @ForAll("longBatches") Batch batch,
      @ForAll("smallFactors") BigInteger c0,
      @ForAll("smallFactors") BigInteger c1,
      @ForAll("smallFactors") BigInteger e0,
      @ForAll("smallFactors") BigInteger e1) {
    List<BigInteger> r = zip(batch, (x, y) -> y.subtract(x.multiply(e1)));
    List<BigInteger> kept = zip(batch, (x, y) -> x.add(y).add(c0));
    checkDealProducts(
        batch.a(), batch.b(), r, kept, List.of(c0, c1, e0, e1), batch.ao(), batch.oo());
  }

  /** Three of the four coefficients small, one dense: the two kinds of product side by side. */
  @Property(seed = "42")
  void dealProducts_oneDenseFactor_matchesBigInteger(
      @ForAll("longBatches") Batch batch,
      @ForAll("smallFactors") BigInteger small,
      @ForAll("elements") BigInteger dense,
      @ForAll @IntRange(min = 0, max = 3) int densePosition) {
    List<BigInteger> c = new ArrayList<>(List.of(small, small, small, small));
    c.set(densePosition, dense);
    List<BigInteger> r = zip(batch, (x, y) -> x.multiply(y).add(dense));
    checkDealProducts(batch.a(), batch.b(), r, batch.b(), c, batch.ao(), batch.oo());
  }

  /**
   * The coefficients BGW deals products with at n = 3, t = 1, derived here from their definition:
   * dealer i (x_i = i + 1) shares d·λ_i (λ the Lagrange weights at 0 over x = 1, 2, 3) with a line
   * through (0, λ_i·d) and (x_j, x_j·ρ), j the next party, whose seeded value is ρ; it keeps the
   * value at x_i and sends the value at x_k, k the party after j.
   */
  @Property(seed = "42")
  void dealProducts_bgwCoefficientsAtThreeParties_matchesBigInteger(
      @ForAll("longBatches") Batch batch, @ForAll @IntRange(min = 0, max = 2) int dealer) {
    checkDealProducts(
        batch.a(), batch.b(), batch.b(), batch.a(), bgwDealing(dealer), batch.ao(), batch.oo());
  }

  /**
   * Every pair of edge values 0, 1, 2, p − 1, p − 2, 2^64 − 1, 2^64, 2^64 + 1, 2^126 − 1, 2^126,
   * 2^126 + 1 and 2^63 as factors, seeded values and kept shares, at odd offsets, with BGW's
   * coefficients and with constants next to them.
   */
  @Example
  void dealProducts_edgePairs_matchesBigInteger() {
    BigInteger one = BigInteger.ONE;
    BigInteger two64 = one.shiftLeft(64);
    BigInteger two126 = one.shiftLeft(126);
    List<BigInteger> edges =
        List.of(
            BigInteger.ZERO,
            one,
            BigInteger.TWO,
            p().subtract(one),
            p().subtract(BigInteger.TWO),
            two64.subtract(one),
            two64,
            two64.add(one),
            two126.subtract(one),
            two126,
            two126.add(one),
            one.shiftLeft(63));
    List<BigInteger> a = new ArrayList<>();
    List<BigInteger> b = new ArrayList<>();
    for (BigInteger x : edges) {
      for (BigInteger y : edges) {
        a.add(x.mod(p()));
        b.add(y.mod(p()));
      }
    }
    List<BigInteger> reversed = new ArrayList<>(b);
    java.util.Collections.reverse(reversed);
    BigInteger minusOne = p().subtract(one);
    List<List<BigInteger>> coefficientSets = new ArrayList<>();
    for (int dealer = 0; dealer < 3; dealer++) {
      coefficientSets.add(bgwDealing(dealer));
    }
    coefficientSets.add(List.of(minusOne, minusOne, minusOne, minusOne));
    coefficientSets.add(List.of(BigInteger.ZERO, one, minusOne, BigInteger.ZERO));
    coefficientSets.add(
        List.of(two126, one.shiftLeft(62).subtract(one), two64.mod(p()), minusOne.subtract(one)));
    for (List<BigInteger> c : coefficientSets) {
      checkDealProducts(a, b, reversed, a, c, 3, 1);
      checkDealProducts(b, a, a, reversed, c, 1, 3);
    }
  }

  /** Dealer's coefficients (own·d, own·ρ, sent·d, sent·ρ) of BGW's multiplication at n = 3. */
  private List<BigInteger> bgwDealing(int dealer) {
    BigInteger[] x = {BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(3)};
    BigInteger weight = BigInteger.ONE;
    for (int m = 0; m < 3; m++) {
      if (m != dealer) {
        weight = weight.multiply(x[m]).multiply(x[m].subtract(x[dealer]).modInverse(p()));
      }
    }
    BigInteger xj = x[(dealer + 1) % 3];
    List<BigInteger> c = new ArrayList<>();
    for (BigInteger z : List.of(x[dealer], x[(dealer + 2) % 3])) {
      // line through (0, w·d) and (x_j, x_j·ρ) at z: w·d·(x_j − z)/x_j + ρ·z
      c.add(weight.multiply(xj.subtract(z)).multiply(xj.modInverse(p())).mod(p()));
      c.add(z.mod(p()));
    }
    return c;
  }

  private void checkDealProducts(
      List<BigInteger> a,
      List<BigInteger> b,
      List<BigInteger> r,
      List<BigInteger> kept,
      List<BigInteger> c,
      int from,
      int oo) {
    int n = a.size();
    long[][] cs = {field().alloc(2), field().alloc(2)};
    for (int j = 0; j < 4; j++) {
      field().encode(c.get(j), cs[j / 2], j % 2);
    }
    long[] acc = pack(kept, from);
    long[] out = sentinels(oo + n + 1);
    long[] scratch = field().alloc(n);
    field()
        .dealProducts(pack(a, from), pack(b, from), from, pack(r, 0), cs, acc, out, oo, n, scratch);
    List<BigInteger> wantKept = new ArrayList<>();
    List<BigInteger> wantSent = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      BigInteger d = a.get(i).multiply(b.get(i));
      BigInteger ri = r.get(i);
      wantKept.add(kept.get(i).add(c.get(0).multiply(d)).add(c.get(1).multiply(ri)).mod(p()));
      wantSent.add(c.get(2).multiply(d).add(c.get(3).multiply(ri)).mod(p()));
    }
    assertElements(wantKept, acc, from);
    assertElements(wantSent, out, oo);
  }

  /** Coefficients (1 − c, c), a Lagrange basis as in every unweighted Shamir share. */
  @Property(seed = "42")
  void combine_twoTermsSummingToOne_matchesBigInteger(
      @ForAll("batches") Batch batch,
      @ForAll("elements") BigInteger c,
      @ForAll("elements") BigInteger previous,
      @ForAll boolean accumulate) {
    long[][] packed = {pack(batch.a(), 0), pack(batch.b(), 0)};
    long[] cs = field().alloc(2);
    field().encode(BigInteger.ONE.subtract(c).mod(p()), cs, 0);
    field().encode(c, cs, 1);
    List<BigInteger> before = new ArrayList<>();
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      BigInteger old = previous.add(BigInteger.valueOf(i)).mod(p());
      before.add(old);
      BigInteger e = batch.a().get(i).multiply(BigInteger.ONE.subtract(c));
      e = e.add(batch.b().get(i).multiply(c));
      expected.add((accumulate ? e.add(old) : e).mod(p()));
    }
    long[] out = pack(before, batch.oo());
    field().combine(packed, cs, out, batch.oo(), batch.n(), accumulate);
    assertElements(expected, out, batch.oo());
  }

  /**
   * Constants ±u·2^s with u near or below 2^62 (BGW's Lagrange coefficients 3, −3, 1/2, 3/2 are of
   * this form over 2^127 − 1, which may multiply by them with two 64-bit products), u = 2^62 just
   * past that bound.
   */
  @Provide
  Arbitrary<BigInteger> smallFactors() {
    Arbitrary<BigInteger> u =
        Arbitraries.frequencyOf(
            Tuple.of(
                1,
                Arbitraries.of(
                    BigInteger.ZERO,
                    BigInteger.ONE,
                    BigInteger.valueOf(3),
                    BigInteger.ONE.shiftLeft(62).subtract(BigInteger.ONE),
                    BigInteger.ONE.shiftLeft(62))),
            Tuple.of(
                3,
                Arbitraries.bigIntegers().between(BigInteger.ONE, BigInteger.ONE.shiftLeft(62))));
    Arbitrary<Integer> shift = Arbitraries.integers().between(0, 130);
    return Combinators.combine(u, shift, Arbitraries.of(false, true))
        .as(
            (x, s, negate) -> {
              BigInteger c = x.multiply(BigInteger.TWO.modPow(BigInteger.valueOf(s), p()));
              return (negate ? c.negate() : c).mod(p());
            });
  }

  @Provide
  Arbitrary<Batch> longBatches() {
    // past the size from which 2^127 − 1 classifies constant factors
    return batches().filter(b -> b.n() >= 16);
  }

  @Property(seed = "42")
  void scale_smallFactor_matchesBigInteger(
      @ForAll("longBatches") Batch batch, @ForAll("smallFactors") BigInteger c) {
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().scale(a, batch.ao(), cs, batch.bo(), out, batch.oo(), batch.n());
    assertElements(map(batch.a(), x -> x.multiply(c)), out, batch.oo());
  }

  @Property(seed = "42")
  void scaleAdd_smallFactor_matchesBigInteger(
      @ForAll("longBatches") Batch batch, @ForAll("smallFactors") BigInteger c) {
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.oo());
    long[] acc = pack(batch.b(), batch.bo());
    field().scaleAdd(a, batch.ao(), cs, batch.oo(), acc, batch.bo(), batch.n());
    assertElements(zip(batch, (x, y) -> x.multiply(c).add(y)), acc, batch.bo());
  }

  @Property(seed = "42")
  void combine_twoSmallFactors_matchesBigInteger(
      @ForAll("longBatches") Batch batch,
      @ForAll("smallFactors") BigInteger c0,
      @ForAll("smallFactors") BigInteger c1,
      @ForAll boolean accumulate) {
    checkCombineTwo(batch, c0, c1, accumulate);
  }

  @Property(seed = "42")
  void combine_oneSmallFactor_matchesBigInteger(
      @ForAll("longBatches") Batch batch,
      @ForAll("smallFactors") BigInteger small,
      @ForAll("elements") BigInteger other,
      @ForAll boolean smallFirst,
      @ForAll boolean accumulate) {
    checkCombineTwo(batch, smallFirst ? small : other, smallFirst ? other : small, accumulate);
  }

  private void checkCombineTwo(Batch batch, BigInteger c0, BigInteger c1, boolean accumulate) {
    long[][] packed = {pack(batch.a(), 0), pack(batch.b(), 0)};
    long[] cs = field().alloc(2);
    field().encode(c0, cs, 0);
    field().encode(c1, cs, 1);
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      BigInteger e = batch.a().get(i).multiply(c0).add(batch.b().get(i).multiply(c1));
      expected.add((accumulate ? e.add(batch.b().get(i)) : e).mod(p()));
    }
    long[] out = pack(batch.b(), batch.oo());
    field().combine(packed, cs, out, batch.oo(), batch.n(), accumulate);
    assertElements(expected, out, batch.oo());
  }

  @Property(seed = "42")
  void combine_twoTermsSummingToOneSmall_matchesBigInteger(
      @ForAll("longBatches") Batch batch,
      @ForAll("smallFactors") BigInteger c,
      @ForAll boolean accumulate) {
    long[][] packed = {pack(batch.a(), 0), pack(batch.b(), 0)};
    long[] cs = field().alloc(2);
    field().encode(BigInteger.ONE.subtract(c).mod(p()), cs, 0);
    field().encode(c, cs, 1);
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < batch.n(); i++) {
      BigInteger e = batch.a().get(i).multiply(BigInteger.ONE.subtract(c));
      e = e.add(batch.b().get(i).multiply(c));
      expected.add((accumulate ? e.add(batch.a().get(i)) : e).mod(p()));
    }
    long[] out = pack(batch.a(), batch.oo());
    field().combine(packed, cs, out, batch.oo(), batch.n(), accumulate);
    assertElements(expected, out, batch.oo());
  }

  @Property(seed = "42")
  void addScalar_randomBatch_matchesBigInteger(
      @ForAll("batches") Batch batch, @ForAll("elements") BigInteger c) {
    long[] a = pack(batch.a(), batch.ao());
    long[] cs = pack(List.of(c), batch.bo());
    long[] out = sentinels(batch.oo() + batch.n() + 1);
    field().addScalar(a, batch.ao(), cs, batch.bo(), out, batch.oo(), batch.n());
    assertElements(map(batch.a(), x -> x.add(c)), out, batch.oo());
  }

  // ---- reductions ----------------------------------------------------------------------------

  @Property(seed = "42")
  void sum_randomBatch_matchesBigInteger(@ForAll("batches") Batch batch) {
    long[] a = pack(batch.a(), batch.ao());
    long[] out = sentinels(batch.oo() + 2);
    field().sum(a, batch.ao(), batch.n(), out, batch.oo());
    BigInteger expected = batch.a().stream().reduce(BigInteger.ZERO, BigInteger::add).mod(p());
    assertElements(List.of(expected), out, batch.oo());
  }

  @Property(seed = "42")
  void innerProduct_randomBatch_matchesBigInteger(@ForAll("batches") Batch batch) {
    long[] a = pack(batch.a(), batch.ao());
    long[] b = pack(batch.b(), batch.bo());
    long[] out = sentinels(batch.oo() + 2);
    field().innerProduct(a, batch.ao(), b, batch.bo(), batch.n(), out, batch.oo());
    BigInteger expected =
        zip(batch, BigInteger::multiply).stream().reduce(BigInteger.ZERO, BigInteger::add).mod(p());
    assertElements(List.of(expected), out, batch.oo());
  }

  // ---- aliasing: out is an input at the same offset ------------------------------------------

  @Property(seed = "42")
  void binaryKernels_outAliasesA_matchBigInteger(@ForAll("batches") Batch batch) {
    checkInPlace(batch, field()::add, BigInteger::add, true);
    checkInPlace(batch, field()::sub, BigInteger::subtract, true);
    checkInPlace(batch, field()::mul, BigInteger::multiply, true);
  }

  @Property(seed = "42")
  void binaryKernels_outAliasesB_matchBigInteger(@ForAll("batches") Batch batch) {
    checkInPlace(batch, field()::add, BigInteger::add, false);
    checkInPlace(batch, field()::sub, BigInteger::subtract, false);
    checkInPlace(batch, field()::mul, BigInteger::multiply, false);
  }

  private void checkInPlace(
      Batch batch, BinaryKernel kernel, BinaryOperator<BigInteger> op, boolean intoA) {
    long[] a = pack(batch.a(), batch.ao());
    long[] b = pack(batch.b(), batch.bo());
    if (intoA) {
      kernel.apply(a, batch.ao(), b, batch.bo(), a, batch.ao(), batch.n());
      assertElements(zip(batch, op), a, batch.ao());
    } else {
      kernel.apply(a, batch.ao(), b, batch.bo(), b, batch.bo(), batch.n());
      assertElements(zip(batch, op), b, batch.bo());
    }
  }

  @Property(seed = "42")
  void unaryAndScalarKernels_outAliasesA_matchBigInteger(
      @ForAll("batches") Batch batch, @ForAll("elements") BigInteger c) {
    Field f = field();
    int ao = batch.ao();
    int n = batch.n();
    long[] cs = pack(List.of(c), 0);

    long[] a = pack(batch.a(), ao);
    f.negate(a, ao, a, ao, n);
    assertElements(map(batch.a(), BigInteger::negate), a, ao);

    a = pack(batch.a(), ao);
    f.scale(a, ao, cs, 0, a, ao, n);
    assertElements(map(batch.a(), x -> x.multiply(c)), a, ao);

    a = pack(batch.a(), ao);
    f.addScalar(a, ao, cs, 0, a, ao, n);
    assertElements(map(batch.a(), x -> x.add(c)), a, ao);
  }

  @Property(seed = "42")
  void reductions_outAliasesA_matchBigInteger(@ForAll("batches") Batch batch) {
    Field f = field();
    int ao = batch.ao();
    int n = batch.n();

    long[] a = pack(batch.a(), ao);
    f.sum(a, ao, n, a, ao);
    assertEquals(
        batch.a().stream().reduce(BigInteger.ZERO, BigInteger::add).mod(p()), unpack(a, ao));

    a = pack(batch.a(), ao);
    long[] b = pack(batch.b(), batch.bo());
    f.innerProduct(a, ao, b, batch.bo(), n, a, ao);
    BigInteger expected =
        zip(batch, BigInteger::multiply).stream().reduce(BigInteger.ZERO, BigInteger::add).mod(p());
    assertEquals(expected, unpack(a, ao));
  }

  // ---- linear forms --------------------------------------------------------------------------

  /** Coefficients of one term of {@link Field#linear}: null (all ones), signs, or small. */
  @Provide
  Arbitrary<long[]> linearCoefficients() {
    long bound = Field.LINEAR_COEFFICIENT_BOUND - 1;
    Arbitrary<Long> small =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.of(bound, -bound, 2L, -2L, 0L)),
            Tuple.of(3, Arbitraries.longs().between(-bound, bound)));
    return Arbitraries.frequencyOf(
        Tuple.of(1, Arbitraries.just(null)),
        Tuple.of(3, Arbitraries.of(-1L, 0L, 1L).array(long[].class).ofSize(LINEAR_N)),
        Tuple.of(2, small.array(long[].class).ofSize(LINEAR_N)));
  }

  /** Elements per linear form: crosses the block of 256 of the fused kernels. */
  static final int LINEAR_N = 300;

  @Property(seed = "42", tries = 60)
  void linear_termsWithSignsAndSmallCoefficients_matchBigInteger(
      @ForAll("linearCoefficients") long[] c0,
      @ForAll("linearCoefficients") long[] c1,
      @ForAll("linearCoefficients") long[] c2,
      @ForAll @IntRange(min = 1, max = 3) int k,
      @ForAll @IntRange(min = 0, max = LINEAR_N) int n,
      @ForAll @IntRange(max = 3) int oo,
      @ForAll long seed) {
    long[][] coefficients = java.util.Arrays.copyOf(new long[][] {c0, c1, c2}, k);
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    long[][] terms = new long[k][];
    int[] offsets = new int[k];
    List<List<BigInteger>> values = new ArrayList<>();
    for (int t = 0; t < k; t++) {
      List<BigInteger> v = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        v.add(
            random.nextInt(4) == 0
                ? p().subtract(BigInteger.valueOf(random.nextInt(2)))
                    .mod(p()) // p − 1 and 0: the extremes of a term
                : new BigInteger(p().bitLength() + 8, new java.util.Random(random.nextLong()))
                    .mod(p()));
      }
      values.add(v);
      offsets[t] = random.nextInt(4);
      terms[t] = pack(v, offsets[t]);
    }
    List<BigInteger> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      BigInteger e = BigInteger.ZERO;
      for (int t = 0; t < k; t++) {
        long c = coefficients[t] == null ? 1 : coefficients[t][i];
        e = e.add(values.get(t).get(i).multiply(BigInteger.valueOf(c)));
      }
      expected.add(e.mod(p()));
    }
    long[] out = sentinels(oo + n + 1);
    field().linear(terms, offsets, coefficients, out, oo, n);
    assertElements(expected, out, oo);
  }

  @Property(seed = "42", tries = 60)
  void sumRows_powersOfTwoOrAnyScalars_matchBigInteger(
      @ForAll @IntRange(max = 40) int rows,
      @ForAll @IntRange(max = LINEAR_N) int n,
      @ForAll @IntRange(max = 3) int ao,
      @ForAll @IntRange(max = 3) int oo,
      @ForAll boolean powers,
      @ForAll long seed) {
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    List<BigInteger> values = new ArrayList<>();
    for (int i = 0; i < rows * n; i++) {
      values.add(
          random.nextInt(5) == 0
              ? p().subtract(BigInteger.ONE)
              : new BigInteger(p().bitLength() + 8, new java.util.Random(random.nextLong()))
                  .mod(p()));
    }
    long[] a = pack(values, ao);
    BigInteger[] scalars = new BigInteger[rows];
    long[] packed = field().alloc(rows);
    int[] shifts = {0, 1, 31, 62, 63, 64, 65, 100, p().bitLength() - 2};
    for (int i = 0; i < rows; i++) {
      BigInteger c =
          powers
              ? BigInteger.ONE.shiftLeft(shifts[random.nextInt(shifts.length)]).mod(p())
              : new BigInteger(p().bitLength() + 8, new java.util.Random(random.nextLong()))
                  .mod(p());
      scalars[i] = c;
      field().encode(c, packed, i);
    }
    List<BigInteger> expected = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      BigInteger e = BigInteger.ZERO;
      for (int i = 0; i < rows; i++) {
        e = e.add(values.get(i * n + j).multiply(scalars[i]));
      }
      expected.add(e.mod(p()));
    }
    long[] out = sentinels(oo + n + 1);
    field().sumRows(a, ao, rows, n, packed, out, oo);
    assertElements(expected, out, oo);
  }

  @Example
  void linear_manyExtremeTerms_matchesBigInteger() {
    // 700 terms of p − 1 times the largest coefficients: the largest sums the kernels must hold.
    int k = 700;
    int n = 3;
    long big = Field.LINEAR_COEFFICIENT_BOUND - 1;
    long[][] terms = new long[k][];
    long[][] coefficients = new long[k][];
    BigInteger expected = BigInteger.ZERO;
    BigInteger top = p().subtract(BigInteger.ONE);
    for (int t = 0; t < k; t++) {
      terms[t] = pack(List.of(top, top, top), 0);
      long c = t % 3 == 0 ? big : t % 3 == 1 ? -big : 1;
      coefficients[t] = new long[] {c, big, -1};
      expected = expected.add(top.multiply(BigInteger.valueOf(c)));
    }
    long[] out = sentinels(n + 1);
    field().linear(terms, new int[k], coefficients, out, 0, n);
    BigInteger allBig = top.multiply(BigInteger.valueOf(big)).multiply(BigInteger.valueOf(k));
    BigInteger allMinus = top.negate().multiply(BigInteger.valueOf(k));
    assertElements(List.of(expected.mod(p()), allBig.mod(p()), allMinus.mod(p())), out, 0);
  }

  // ---- randomness ----------------------------------------------------------------------------

  @Property(seed = "42", tries = 100)
  void random_seededPrg_fillsCanonicalElementsRepeatably(
      @ForAll @IntRange(max = 300) int n, @ForAll @IntRange(max = 3) int oo, @ForAll long seed) {
    long[] out = sentinels(oo + n + 1);
    field().random(Prg.seeded(seed), out, oo, n);
    for (int i = 0; i < n; i++) {
      BigInteger v = unpack(out, oo + i);
      assertTrue(v.compareTo(p()) < 0, "element " + i + " is not canonical: " + v);
    }
    assertUntouchedOutside(out, oo, n);
    long[] again = sentinels(oo + n + 1);
    field().random(Prg.seeded(seed), again, oo, n);
    assertArrayEquals(out, again);
  }

  @Example
  void random_manyDraws_fillUpperHalfInProportion() {
    int n = 4000;
    long[] out = field().alloc(n);
    field().random(Prg.seeded(7), out, 0, n);
    BigInteger half = p().shiftRight(1);
    int upper = 0;
    for (int i = 0; i < n; i++) {
      if (unpack(out, i).compareTo(half) > 0) {
        upper++;
      }
    }
    // The upper half (p/2, p) holds (p - 1)/2 of the p elements: about n/2, or 2n/5 for p = 5.
    // The standard deviation is at most 32; allow more than 6 of them.
    double expected = n * half.doubleValue() / p().doubleValue();
    assertTrue(Math.abs(upper - expected) < 200, "upper half drew " + upper + " of " + n);
  }

  /** Yields the given words, then zeros. */
  static Prg scripted(long... words) {
    return new Prg() {
      int next;

      @Override
      public long nextLong() {
        return next < words.length ? words[next++] : 0;
      }

      @Override
      public void fill(long[] out, int off, int n) {
        for (int i = 0; i < n; i++) {
          out[off + i] = nextLong();
        }
      }

      @Override
      public void nextBytes(byte[] out) {
        throw new UnsupportedOperationException();
      }
    };
  }

  @Example
  void random_firstDrawAllOnes_rejectsAndDrawsAgain() {
    // All-ones words, masked to the modulus' bit length, give a value >= p: it must be
    // rejected, and the element taken from the next words, here 3 followed by zeros.
    int w = field().words();
    long[] script = new long[2 * w];
    java.util.Arrays.fill(script, 0, w, -1L);
    script[w] = 3;
    long[] out = sentinels(3);
    field().random(scripted(script), out, 1, 1);
    assertElements(List.of(BigInteger.valueOf(3)), out, 1);
  }

  // ---- exponentiation, inverse, square roots ------------------------------------------------

  @Property(seed = "42", tries = 200)
  void pow_randomExponent_matchesModPow(
      @ForAll("elements") BigInteger x, @ForAll @IntRange(max = 300) int bits, @ForAll long salt) {
    BigInteger e = new BigInteger(bits, new java.util.Random(salt)); // test data, not secrets
    long[] out = sentinels(3);
    field().pow(pack(List.of(x), 0), 0, e, out, 1);
    assertElements(List.of(x.modPow(e, p())), out, 1);
  }

  @Example
  void pow_zeroExponent_returnsOne() {
    long[] out = sentinels(1);
    field().pow(pack(List.of(BigInteger.ZERO), 0), 0, BigInteger.ZERO, out, 0);
    assertEquals(BigInteger.ONE, unpack(out, 0));
  }

  @Example
  void pow_negativeExponent_throws() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            field()
                .pow(pack(List.of(BigInteger.TWO), 0), 0, BigInteger.valueOf(-1), sentinels(1), 0));
  }

  @Property(seed = "42", tries = 300)
  void inverse_nonZero_timesSelfIsOne(@ForAll("elements") BigInteger x) {
    if (x.signum() == 0) {
      x = BigInteger.ONE;
    }
    long[] out = sentinels(2);
    field().inverse(pack(List.of(x), 0), 0, out, 1);
    BigInteger inv = unpack(out, 1);
    assertEquals(BigInteger.ONE, inv.multiply(x).mod(p()));
    assertUntouchedOutside(out, 1, 1);
  }

  @Example
  void inverse_zero_throwsArithmeticException() {
    ArithmeticException e =
        assertThrows(
            ArithmeticException.class,
            () -> field().inverse(pack(List.of(BigInteger.ZERO), 0), 0, sentinels(1), 0));
    assertEquals("inverse of zero in " + field().name(), e.getMessage());
  }

  @Property(seed = "42", tries = 300)
  void sqrt_square_returnsSmallerRoot(@ForAll("elements") BigInteger x) {
    BigInteger square = x.multiply(x).mod(p());
    long[] out = sentinels(3);
    assertTrue(field().sqrt(pack(List.of(square), 0), 0, out, 1), "no root found for a square");
    BigInteger root = unpack(out, 1);
    assertEquals(x.min(p().subtract(x).mod(p())), root);
    assertUntouchedOutside(out, 1, 1);
  }

  @Property(seed = "42", tries = 300)
  void sqrt_anyElement_agreesWithEulerCriterion(@ForAll("elements") BigInteger x) {
    boolean isSquare = x.signum() == 0 || x.modPow(p().shiftRight(1), p()).equals(BigInteger.ONE);
    long[] out = sentinels(1);
    assertEquals(isSquare, field().sqrt(pack(List.of(x), 0), 0, out, 0));
    if (isSquare) {
      BigInteger root = unpack(out, 0);
      assertEquals(x, root.multiply(root).mod(p()));
      assertTrue(root.compareTo(p().shiftRight(1)) <= 0, "root is not the smaller one");
    } else {
      assertUntouchedOutside(out, 0, 0);
    }
  }

  @Example
  void sqrt_smallestNonResidue_returnsFalse() {
    BigInteger z = BigInteger.TWO;
    while (z.modPow(p().shiftRight(1), p()).equals(BigInteger.ONE)) {
      z = z.add(BigInteger.ONE);
    }
    long[] out = sentinels(1);
    assertFalse(field().sqrt(pack(List.of(z), 0), 0, out, 0), z + " is not a square");
    assertUntouchedOutside(out, 0, 0);
  }

  @Example
  void sqrt_zero_returnsZero() {
    long[] out = sentinels(1);
    assertTrue(field().sqrt(pack(List.of(BigInteger.ZERO), 0), 0, out, 0));
    assertEquals(BigInteger.ZERO, unpack(out, 0));
  }

  // ---- conversions ---------------------------------------------------------------------------

  BigInteger symmetric(BigInteger v) {
    BigInteger x = v.mod(p());
    return x.compareTo(p().shiftRight(1)) > 0 ? x.subtract(p()) : x;
  }

  @Property(seed = "42")
  void encodeLong_anyLong_reducesModP(@ForAll long v) {
    long[] out = sentinels(3);
    field().encode(v, out, 1);
    assertElements(List.of(BigInteger.valueOf(v).mod(p())), out, 1);
  }

  @Property(seed = "42")
  void encodeBigInteger_anySign_reducesModP(
      @ForAll @IntRange(max = 400) int bits, @ForAll long salt) {
    java.util.Random random = new java.util.Random(salt); // test data, not secrets
    BigInteger v = new BigInteger(bits, random);
    if (random.nextBoolean()) {
      v = v.negate();
    }
    long[] out = sentinels(3);
    field().encode(v, out, 1);
    assertElements(List.of(v.mod(p())), out, 1);
  }

  @Property(seed = "42")
  void toBigInteger_anyElement_returnsCanonicalValue(@ForAll("elements") BigInteger x) {
    assertEquals(x, field().toBigInteger(pack(List.of(x), 1), 1));
  }

  @Property(seed = "42")
  void decodeSigned_anyElement_returnsSymmetricRepresentative(@ForAll("elements") BigInteger x) {
    assertEquals(symmetric(x), field().decodeSigned(pack(List.of(x), 1), 1));
  }

  @Property(seed = "42")
  void decodeLong_anyElement_returnsSymmetricValueOrThrows(@ForAll("elements") BigInteger x) {
    BigInteger expected = symmetric(x);
    long[] a = pack(List.of(x), 0);
    if (expected.bitLength() <= 63) {
      assertEquals(expected.longValueExact(), field().decodeLong(a, 0));
    } else {
      ArithmeticException e =
          assertThrows(ArithmeticException.class, () -> field().decodeLong(a, 0));
      assertEquals("field element does not fit in a signed 64-bit integer", e.getMessage());
    }
  }

  @Property(seed = "42")
  void decodeSigned_encodedLong_returnsSymmetricRepresentative(@ForAll long v) {
    long[] a = sentinels(1);
    field().encode(v, a, 0);
    assertEquals(symmetric(BigInteger.valueOf(v)), field().decodeSigned(a, 0));
  }

  @Example
  void encodeThenDecodeLong_extremeLongs_roundTripWhenFieldIsWide() {
    for (long v : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}) {
      long[] a = sentinels(1);
      field().encode(v, a, 0);
      BigInteger expected = symmetric(BigInteger.valueOf(v));
      assertEquals(expected.longValue(), field().decodeLong(a, 0), "for " + v);
      if (field().bitLength() > 64) {
        assertEquals(v, field().decodeLong(a, 0), "round trip of " + v);
      }
    }
  }

  @Property(seed = "42")
  void equal_twoElements_matchesValueEquality(
      @ForAll("elements") BigInteger x, @ForAll("elements") BigInteger y) {
    long[] a = pack(List.of(x), 0);
    long[] b = pack(List.of(y), 2);
    assertEquals(x.equals(y), field().equal(a, 0, b, 2));
    assertTrue(field().equal(a, 0, pack(List.of(x), 1), 1));
  }

  @Example
  void alloc_threeElements_returnsZeroedWords() {
    assertArrayEquals(new long[3 * field().words()], field().alloc(3));
  }

  @Example
  void bitLengthAndWords_anyField_matchModulus() {
    assertEquals(p().bitLength(), field().bitLength());
    assertEquals((p().bitLength() + 63) / 64, field().words());
  }

  @Example
  void toString_anyField_returnsName() {
    assertEquals(field().name(), field().toString());
  }
}
