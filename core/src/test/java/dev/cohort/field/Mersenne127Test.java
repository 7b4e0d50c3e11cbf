package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import net.jqwik.api.Example;

class Mersenne127Test extends FieldContract {

  @Override
  Field field() {
    return Fields.MERSENNE_127;
  }

  @Example
  void modulus_always_isTwoToThe127MinusOne() {
    assertEquals(BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE), field().modulus());
    assertEquals("m127", field().name());
  }

  @Example
  void decodeLong_justOutsideSignedLongRange_throws() {
    BigInteger two63 = BigInteger.ONE.shiftLeft(63);
    for (BigInteger v :
        new BigInteger[] {
          two63,
          two63.negate().subtract(BigInteger.ONE),
          BigInteger.ONE.shiftLeft(64),
          p().shiftRight(1),
          p().shiftRight(1).negate()
        }) {
      long[] a = field().alloc(1);
      field().encode(v, a, 0);
      ArithmeticException e =
          assertThrows(ArithmeticException.class, () -> field().decodeLong(a, 0), "for " + v);
      assertEquals("field element does not fit in a signed 64-bit integer", e.getMessage());
    }
  }

  @Example
  void decodeLong_signedLongBounds_returnBounds() {
    for (long v : new long[] {Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE}) {
      long[] a = field().alloc(1);
      field().encode(BigInteger.valueOf(v), a, 0);
      assertEquals(v, field().decodeLong(a, 0));
    }
  }

  @Example
  void mul_pMinusOneSquared_isOne() {
    // (p - 1)^2 = p^2 - 2p + 1: the largest product, exercising every carry of the reduction.
    long[] a = {-2L, Long.MAX_VALUE};
    long[] out = new long[2];
    field().mul(a, 0, a, 0, out, 0, 1);
    assertEquals(BigInteger.ONE, field().toBigInteger(out, 0));
  }
}
