package dev.cohort.clients;

import dev.cohort.field.Field;
import java.math.BigInteger;

/** Checks that words a client sent are canonical field elements, in [0, p). */
final class Canonical {

  private final int words;
  private final long[] modulus;

  Canonical(Field field) {
    this.words = field.words();
    this.modulus = new long[words];
    BigInteger p = field.modulus();
    for (int w = 0; w < words; w++) {
      modulus[w] = p.shiftRight(64 * w).longValue();
    }
  }

  /** True when every element of {@code a} is below p. */
  boolean all(long[] a) {
    for (int i = 0; i < a.length; i += words) {
      if (!below(a, i)) {
        return false;
      }
    }
    return true;
  }

  private boolean below(long[] a, int at) {
    for (int w = words - 1; w >= 0; w--) {
      int c = Long.compareUnsigned(a[at + w], modulus[w]);
      if (c != 0) {
        return c < 0;
      }
    }
    return false;
  }
}
