package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Pins the two-word helpers of {@link Limbs127} to {@code BigInteger} arithmetic. */
class Limbs127Test {

  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);
  private static final BigInteger TWO_128 = BigInteger.ONE.shiftLeft(128);
  private static final BigInteger P = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

  @Property(seed = "42")
  void carry_anyWords_isCarryOutOfUnsignedSum(@ForAll long x, @ForAll long y, @ForAll boolean in) {
    long c = in ? 1 : 0;
    long s = x + y + c;
    BigInteger sum = unsigned(x).add(unsigned(y)).add(BigInteger.valueOf(c));
    assertEquals(sum.shiftRight(64).longValue(), Limbs127.carry(x, y, s));
  }

  @Property(seed = "42")
  void unsignedMultiplyHigh_anyWords_isHighWordOfProduct(@ForAll long a, @ForAll long b) {
    BigInteger product = unsigned(a).multiply(unsigned(b));
    assertEquals(product.shiftRight(64).longValue(), Limbs127.unsignedMultiplyHigh(a, b));
  }

  @Property(seed = "42")
  void reduce128_belowTwoTo128MinusOne_isModP(@ForAll("lazy") BigInteger s) {
    long[] out = new long[2];
    Limbs127.reduce128(s.longValue(), s.shiftRight(64).longValue(), out, 0);
    assertEquals(s.mod(P), value(out, 0));
  }

  @Example
  void reduce128_edges_areModP() {
    BigInteger[] edges = {
      BigInteger.ZERO,
      P.subtract(BigInteger.ONE),
      P,
      P.add(BigInteger.ONE),
      TWO_128.subtract(BigInteger.TWO)
    };
    for (BigInteger s : edges) {
      long[] out = new long[2];
      Limbs127.reduce128(s.longValue(), s.shiftRight(64).longValue(), out, 0);
      assertEquals(s.mod(P), value(out, 0), "for " + s);
    }
  }

  @Property(seed = "42")
  void mulAdd_canonical_isProductPlusAddendModP(
      @ForAll("canonical") BigInteger a,
      @ForAll("canonical") BigInteger b,
      @ForAll("canonical") BigInteger c) {
    long[] out = new long[2];
    Limbs127.mulAdd(lo(a), hi(a), lo(b), hi(b), lo(c), hi(c), out, 0);
    assertEquals(a.multiply(b).add(c).mod(P), value(out, 0));
  }

  @Property(seed = "42")
  void mulAddFolded_canonical_isCongruentAndBelowTwoTo128MinusOne(
      @ForAll("canonical") BigInteger a,
      @ForAll("canonical") BigInteger b,
      @ForAll("canonical") BigInteger c) {
    long[] out = new long[2];
    Limbs127.mulAddFolded(lo(a), hi(a), lo(b), hi(b), lo(c), hi(c), out, 0);
    BigInteger s = value(out, 0);
    assertEquals(a.multiply(b).add(c).mod(P), s.mod(P));
    assertEquals(-1, s.compareTo(TWO_128.subtract(BigInteger.ONE)));
  }

  @Property(seed = "42")
  void rotateLeft_canonical_isTimesTwoToTheShiftModP(
      @ForAll("canonical") BigInteger x, @ForAll("shift") int s) {
    long[] out = new long[2];
    Limbs127.rotateLeft(lo(x), hi(x), s, out, 0);
    assertEquals(x.shiftLeft(s).mod(P), value(out, 0));
  }

  @Property(seed = "42")
  void limbSums_canonicalTerms_foldToSumModP(
      @ForAll("canonical") BigInteger x,
      @ForAll("canonical") BigInteger y,
      @ForAll("smallFactor") long c) {
    long[] sums = new long[3];
    Limbs127.addLimbs(lo(x), hi(x), sums, 0);
    Limbs127.addSmallProduct(lo(y), hi(y), c, sums, 0);
    long[] out = new long[2];
    Limbs127.foldLimbs(sums, 0, out, 0);
    assertEquals(x.add(y.multiply(BigInteger.valueOf(c))).mod(P), value(out, 0));
  }

  @Example
  void limbs_pMinusOneSquared_isOne() {
    long[] out = new long[2];
    Limbs127.mulAdd(
        Limbs127.P_LO - 1, Limbs127.P_HI, Limbs127.P_LO - 1, Limbs127.P_HI, 0, 0, out, 0);
    assertArrayEquals(new long[] {1, 0}, out);
  }

  @Provide
  Arbitrary<BigInteger> canonical() {
    return Arbitraries.oneOf(
        Arbitraries.bigIntegers().between(BigInteger.ZERO, P.subtract(BigInteger.ONE)),
        Arbitraries.of(
            BigInteger.ZERO, BigInteger.ONE, P.subtract(BigInteger.ONE), P.shiftRight(1), TWO_64));
  }

  @Provide
  Arbitrary<BigInteger> lazy() {
    return Arbitraries.bigIntegers().between(BigInteger.ZERO, TWO_128.subtract(BigInteger.TWO));
  }

  @Provide
  Arbitrary<Integer> shift() {
    return Arbitraries.integers().between(0, 126);
  }

  @Provide
  Arbitrary<Long> smallFactor() {
    return Arbitraries.longs().between(-(1L << 31) + 1, (1L << 31) - 1);
  }

  private static BigInteger unsigned(long w) {
    BigInteger v = BigInteger.valueOf(w);
    return w < 0 ? v.add(TWO_64) : v;
  }

  private static long lo(BigInteger x) {
    return x.longValue();
  }

  private static long hi(BigInteger x) {
    return x.shiftRight(64).longValue();
  }

  private static BigInteger value(long[] w, int o) {
    return unsigned(w[o + 1]).shiftLeft(64).add(unsigned(w[o]));
  }
}
