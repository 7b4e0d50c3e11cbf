package dev.cohort.cli;

import java.util.Random;

/**
 * The input data of the demos, generated from a seed so that a run can be repeated and checked.
 *
 * <p>{@code java.util.Random} is fine here, and only here: it makes up the parties' demo inputs,
 * which are not secret from the person running the demo. Every random value a protocol uses
 * (shares, masks, keys) comes from the engine's cryptographic PRG.
 */
final class DemoData {

  /** Bit length of every demo input: values are signed, in {@code [-2^15, 2^15)}. */
  static final int BITS = 16;

  private DemoData() {}

  /**
   * Each party's vector of {@code length} signed {@link #BITS}-bit values: one {@code Random}
   * seeded with {@code seed} fills P0's vector, then P1's, and so on.
   */
  static long[][] vectors(long seed, int parties, int length) {
    Random random = new Random(seed);
    long[][] vectors = new long[parties][length];
    for (long[] vector : vectors) {
      for (int i = 0; i < length; i++) {
        vector[i] = random.nextInt(1 << BITS) - (1 << (BITS - 1));
      }
    }
    return vectors;
  }
}
