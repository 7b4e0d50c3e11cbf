package dev.cohort.clients;

import java.util.Arrays;

/**
 * What every client of a session submits: {@code bits.length} values, value {@code c} declared
 * {@code bits[c]}-bit signed, in {@code [-2^(b-1), 2^(b-1))} as for {@code Numeric.input}. The
 * servers fix it for a session and send it with the session's opening; a submission of another
 * shape is refused.
 *
 * <p>A client submits every value as its {@code b} bits (of {@code value + 2^(b-1)}), so a value is
 * in range by construction once each bit is shown to be 0 or 1: {@link #elements()} shared bits per
 * submission.
 */
public final class Shape {

  /** The widest value a client may declare: a long, with room for the offset. */
  public static final int MAX_BITS = 62;

  private final int[] bits;
  private final int[] offsets;
  private final int elements;

  /** A shape of {@code bits.length} values with the given declared bit lengths. */
  public Shape(int... bits) {
    if (bits.length == 0) {
      throw new IllegalArgumentException("a submission needs at least one value");
    }
    this.bits = bits.clone();
    this.offsets = new int[bits.length];
    int at = 0;
    for (int c = 0; c < bits.length; c++) {
      if (bits[c] < 1 || bits[c] > MAX_BITS) {
        throw new IllegalArgumentException(
            "value " + c + " declares " + bits[c] + " bits; it must be in [1, " + MAX_BITS + "]");
      }
      offsets[c] = at;
      at += bits[c];
    }
    this.elements = at;
  }

  /** One value of {@code bits} bits. */
  public static Shape of(int bits) {
    return new Shape(bits);
  }

  public int columns() {
    return bits.length;
  }

  public int bits(int column) {
    return bits[column];
  }

  /** The first bit of column {@code column} among a submission's bits. */
  public int offset(int column) {
    return offsets[column];
  }

  /** The bits a submission shares: the sum of the declared bit lengths. */
  public int elements() {
    return elements;
  }

  /** The declared bit lengths, a copy. */
  public int[] bits() {
    return bits.clone();
  }

  /** Throws naming the value when {@code values} do not fit this shape. */
  public void check(long[] values) {
    if (values.length != bits.length) {
      throw new IllegalArgumentException(
          values.length + " values submitted; the session takes " + bits.length);
    }
    for (int c = 0; c < bits.length; c++) {
      long half = 1L << (bits[c] - 1);
      if (values[c] < -half || values[c] >= half) {
        throw new IllegalArgumentException(
            "value "
                + c
                + " ("
                + values[c]
                + ") is outside the declared "
                + bits[c]
                + "-bit range ["
                + -half
                + ", "
                + half
                + ")");
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Shape s && Arrays.equals(bits, s.bits);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bits);
  }

  @Override
  public String toString() {
    return "values of " + Arrays.toString(bits) + " bits";
  }
}
