package dev.cohort.offline.ot;

/**
 * The caller's side of {@link PairwiseOts#transfer}, checked before any round so that a bad call
 * fails at once instead of leaving the peers waiting.
 */
final class Arguments {

  private Arguments() {}

  /**
   * Throws unless {@code count} is in [0, max] and every peer's choices hold {@code count} bits.
   */
  static void check(int count, int max, long[][] choices, int me) {
    if (count < 0 || count > max) {
      throw new IllegalArgumentException(
          "count (" + count + ") must be in [0, " + max + "]; split larger batches");
    }
    int words = (count + 63) >>> 6;
    for (int p = 0; p < choices.length; p++) {
      if (p != me && (choices[p] == null || choices[p].length < words)) {
        throw new IllegalArgumentException(
            "choices for P"
                + p
                + " must hold "
                + count
                + " bits ("
                + words
                + " words), got "
                + (choices[p] == null ? "null" : choices[p].length + " words"));
      }
    }
  }
}
