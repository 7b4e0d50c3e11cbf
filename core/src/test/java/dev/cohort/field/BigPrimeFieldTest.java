package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import net.jqwik.api.Example;
import net.jqwik.api.Group;

/**
 * The field contract over primes chosen to cover one to four words, a full 64-bit top word, and
 * both square-root paths: {@code p ≡ 3 (mod 4)} and Tonelli–Shanks with 2-adicity 2 and 32.
 */
class BigPrimeFieldTest {

  static BigPrimeField prime(String decimal) {
    return new BigPrimeField(new BigInteger(decimal));
  }

  static BigInteger pow2(int k) {
    return BigInteger.ONE.shiftLeft(k);
  }

  /** 5 ≡ 1 (mod 4): the smallest accepted prime, where rejection sampling rejects often. */
  @Group
  class Five extends FieldContract {
    static final Field FIELD = prime("5");

    @Override
    Field field() {
      return FIELD;
    }
  }

  /** 1000003 ≡ 3 (mod 4), one word. */
  @Group
  class Prime1000003 extends FieldContract {
    static final Field FIELD = prime("1000003");

    @Override
    Field field() {
      return FIELD;
    }
  }

  /** 2^64 - 59 ≡ 1 (mod 4), p - 1 = 4 * odd: Tonelli–Shanks with s = 2, full 64-bit word. */
  @Group
  class TwoTo64Minus59 extends FieldContract {
    static final Field FIELD = new BigPrimeField(pow2(64).subtract(BigInteger.valueOf(59)));

    @Override
    Field field() {
      return FIELD;
    }
  }

  /** 2^64 - 2^32 + 1 (Goldilocks), p - 1 = 2^32 * odd: Tonelli–Shanks with s = 32. */
  @Group
  class Goldilocks extends FieldContract {
    static final Field FIELD = new BigPrimeField(pow2(64).subtract(pow2(32)).add(BigInteger.ONE));

    @Override
    Field field() {
      return FIELD;
    }
  }

  /** 2^89 - 1 ≡ 3 (mod 4), two words. */
  @Group
  class TwoTo89Minus1 extends FieldContract {
    static final Field FIELD = new BigPrimeField(pow2(89).subtract(BigInteger.ONE));

    @Override
    Field field() {
      return FIELD;
    }
  }

  /** 2^130 - 5 ≡ 3 (mod 4), three words. */
  @Group
  class TwoTo130Minus5 extends FieldContract {
    static final Field FIELD = new BigPrimeField(pow2(130).subtract(BigInteger.valueOf(5)));

    @Override
    Field field() {
      return FIELD;
    }
  }

  /** The BLS12-381 scalar field: 255 bits, four words, 2-adicity 32. */
  @Group
  class Bls12381Scalar extends FieldContract {
    static final Field FIELD =
        new BigPrimeField(
            new BigInteger("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16));

    @Override
    Field field() {
      return FIELD;
    }
  }

  @Example
  void constructor_composite_throwsNamingModulus() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> prime("1000001"));
    assertEquals("field modulus must be a prime >= 5, got 1000001", e.getMessage());
  }

  @Example
  void constructor_tooSmallOrNegative_throws() {
    for (String p : new String[] {"2", "3", "-7", "0", "1"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> prime(p));
      assertEquals("field modulus must be a prime >= 5, got " + p, e.getMessage());
    }
  }

  @Example
  void name_decimalPrime_isPrefixedWithP() {
    assertEquals("p1000003", prime("1000003").name());
    assertEquals("p1000003", prime("1000003").toString());
  }

  @Example
  void equals_sameModulus_isEqualWithSameHash() {
    assertEquals(prime("1000003"), prime("1000003"));
    assertEquals(prime("1000003").hashCode(), prime("1000003").hashCode());
    assertNotEquals(prime("1000003"), prime("1000033"));
  }
}
