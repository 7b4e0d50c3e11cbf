package dev.cohort.producer;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import java.math.BigInteger;

/**
 * How a builder turns the application's plain numbers into packed field elements: a party's private
 * inputs, after the check of their declared signed range, and public constants. The checks of the
 * parties and bit lengths that a call names live here too, so each message is written once.
 *
 * <p>Messages name the party, the position and the range, never an input's value (STYLE.md §7).
 */
final class Encoding {

  private Encoding() {}

  // ---- parties and bit lengths ----

  /**
   * Fails unless {@code party} is one of the {@code parties} parties; {@code what} names the call.
   */
  static void checkParty(int parties, int party, String what) {
    if (party < 0 || party >= parties) {
      throw new IllegalArgumentException(
          what + " names party " + party + ", but the parties are P0.." + PartyId.of(parties - 1));
    }
  }

  /** Fails unless {@code bits} is in [1, max]. */
  static void checkBits(Field field, int bits, int max) {
    if (bits < 1 || bits > max) {
      throw new IllegalArgumentException(
          "bit length ("
              + bits
              + ") must be in [1, "
              + max
              + "] for the field "
              + field.name()
              + " ("
              + field.bitLength()
              + " bits)");
    }
  }

  /** The largest declared bit length of an input given as {@code long}s. */
  static int maxLongInputBits(Field field) {
    return Math.min(64, field.bitLength() - 1);
  }

  // ---- private inputs ----

  /** The owner's input {@code value}, checked against its {@code bits}-bit signed range. */
  static long[] input(Field field, int party, long value, int bits) {
    long[] packed = field.alloc(1);
    encodeChecked(field, party, value, bits, packed, 0);
    return packed;
  }

  /** The owner's {@link BigInteger} input, checked against its {@code bits}-bit signed range. */
  static long[] input(Field field, int party, BigInteger value, int bits) {
    if (value == null) {
      throw new IllegalArgumentException(PartyId.of(party) + "'s input value is null");
    }
    BigInteger bound = BigInteger.ONE.shiftLeft(bits - 1);
    if (value.compareTo(bound.negate()) < 0 || value.compareTo(bound) >= 0) {
      throw new IllegalArgumentException(rangeMessage(party, 0, bits));
    }
    long[] packed = field.alloc(1);
    field.encode(value, packed, 0);
    return packed;
  }

  /** Fails unless the owner supplied exactly {@code length} values. */
  static void checkSupplied(int party, long[] values, int length) {
    if (values == null || values.length != length) {
      throw new IllegalArgumentException(
          PartyId.of(party)
              + " must supply "
              + length
              + " input values, got "
              + (values == null ? "none" : values.length));
    }
  }

  /** The owner's inputs, each checked against its {@code bits}-bit signed range. */
  static long[] inputs(Field field, int party, long[] values, int bits) {
    long[] packed = field.alloc(values.length);
    for (int i = 0; i < values.length; i++) {
      encodeChecked(field, party, values[i], bits, packed, i);
    }
    return packed;
  }

  /** Encodes input {@code v} at element {@code i} after checking its declared signed range. */
  private static void encodeChecked(
      Field field, int party, long v, int bits, long[] packed, int i) {
    checkRange(party, v, bits, i);
    field.encode(v, packed, i);
  }

  /** Fails unless the owner's single input {@code v} lies in its {@code bits}-bit signed range. */
  static void checkRange(int party, long v, int bits) {
    checkRange(party, v, bits, 0);
  }

  private static void checkRange(int party, long v, int bits, int position) {
    if (bits < 64 && (v < -(1L << (bits - 1)) || v >= 1L << (bits - 1))) {
      throw new IllegalArgumentException(rangeMessage(party, position, bits));
    }
  }

  private static String rangeMessage(int party, int position, int bits) {
    return PartyId.of(party)
        + "'s input at position "
        + position
        + " is outside the declared "
        + bits
        + "-bit signed range [-2^"
        + (bits - 1)
        + ", 2^"
        + (bits - 1)
        + ")";
  }

  // ---- public constants ----

  static long[] element(Field field, long c) {
    long[] packed = field.alloc(1);
    field.encode(c, packed, 0);
    return packed;
  }

  static long[] element(Field field, BigInteger c) {
    long[] packed = field.alloc(1);
    field.encode(c, packed, 0);
    return packed;
  }

  static long[] elements(Field field, long[] values) {
    long[] packed = field.alloc(values.length);
    for (int i = 0; i < values.length; i++) {
      field.encode(values[i], packed, i);
    }
    return packed;
  }

  static long[] elements(Field field, BigInteger[] values) {
    long[] packed = field.alloc(values.length);
    for (int i = 0; i < values.length; i++) {
      field.encode(values[i], packed, i);
    }
    return packed;
  }

  /** A public vector operand of a secret vector of {@code expected} elements. */
  static long[] publicVector(Field field, long[] constants, int expected) {
    if (constants.length != expected) {
      throw new IllegalArgumentException(
          "public vector has " + constants.length + " values for a secret vector of " + expected);
    }
    return elements(field, constants);
  }
}
