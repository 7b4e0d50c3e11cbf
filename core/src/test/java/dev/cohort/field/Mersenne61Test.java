package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

class Mersenne61Test extends FieldContract {

  @Override
  Field field() {
    return Fields.MERSENNE_61;
  }

  @Example
  void modulus_always_isTwoToThe61MinusOne() {
    assertEquals(BigInteger.ONE.shiftLeft(61).subtract(BigInteger.ONE), field().modulus());
    assertEquals(BigInteger.valueOf(Mersenne61.P), field().modulus());
    assertEquals("m61", field().name());
  }

  @Property(seed = "42")
  void staticHelpers_randomPairs_matchBigInteger(
      @ForAll("elements") BigInteger x, @ForAll("elements") BigInteger y) {
    long a = x.longValueExact();
    long b = y.longValueExact();
    assertEquals(x.multiply(y).mod(p()).longValueExact(), Mersenne61.mul(a, b));
    assertEquals(x.add(y).mod(p()).longValueExact(), Mersenne61.add(a, b));
    assertEquals(x.subtract(y).mod(p()).longValueExact(), Mersenne61.sub(a, b));
  }

  @Property(seed = "42")
  void staticPow_unsignedExponent_matchesModPow(@ForAll("elements") BigInteger x, @ForAll long e) {
    BigInteger unsigned = new BigInteger(Long.toUnsignedString(e));
    assertEquals(x.modPow(unsigned, p()).longValueExact(), Mersenne61.pow(x.longValueExact(), e));
  }
}
