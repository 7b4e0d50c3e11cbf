package dev.cohort.field;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

class FieldsTest {

  @Test
  void byName_mersenneNames_returnSingletons() {
    assertSame(Fields.MERSENNE_61, Fields.byName("m61"));
    assertSame(Fields.MERSENNE_61, Fields.byName("2^61-1"));
    assertSame(Fields.MERSENNE_127, Fields.byName("m127"));
    assertSame(Fields.MERSENNE_127, Fields.byName(" M127 "));
    assertSame(Fields.MERSENNE_127, Fields.byName("2^127-1"));
  }

  @Test
  void byName_decimalMersennePrime_returnsFastField() {
    assertSame(Fields.MERSENNE_61, Fields.byName("2305843009213693951"));
    assertSame(
        Fields.MERSENNE_127,
        Fields.byName(BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE).toString()));
  }

  @Test
  void byName_decimalPrime_returnsBigPrimeField() {
    Field f = Fields.byName("1000003");
    assertTrue(f instanceof BigPrimeField);
    assertEquals(BigInteger.valueOf(1000003), f.modulus());
  }

  @Test
  void byName_fieldName_roundTrips() {
    for (Field f :
        new Field[] {Fields.MERSENNE_61, Fields.MERSENNE_127, Fields.byName("1000003")}) {
      assertEquals(f, Fields.byName(f.name()));
    }
  }

  @Test
  void byName_unknownName_throwsListingAcceptedNames() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Fields.byName("m62"));
    assertEquals(
        "unknown field 'm62': expected m61, m127, 2^61-1, 2^127-1, or a decimal prime >= 5"
            + " (optionally prefixed with p)",
        e.getMessage());
  }

  @Test
  void byName_compositeNumber_throwsNamingModulus() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Fields.byName("15"));
    assertEquals("field modulus must be a prime >= 5, got 15", e.getMessage());
  }

  @Test
  void prime_mersenneModuli_returnSingletons() {
    assertSame(Fields.MERSENNE_61, Fields.prime(BigInteger.valueOf(Mersenne61.P)));
    assertSame(Fields.MERSENNE_127, Fields.prime(Fields.MERSENNE_127.modulus()));
    assertEquals(new BigPrimeField(BigInteger.valueOf(7)), Fields.prime(BigInteger.valueOf(7)));
  }
}
