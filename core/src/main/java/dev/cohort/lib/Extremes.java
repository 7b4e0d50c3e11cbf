package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;

/**
 * Minimum, maximum and argmax of a list of k-bit signed secrets, as a tournament tree: each level
 * compares the two halves of what is left as one batch, so a list of n values costs ⌈log2 n⌉
 * comparison rounds and n − 1 comparisons.
 */
public final class Extremes {

  private Extremes() {}

  public static Secret min(Numeric b, SecretVector values, int k) {
    return b.get(reduce(b, values, null, k, false)[0], 0);
  }

  public static Secret max(Numeric b, SecretVector values, int k) {
    return b.get(reduce(b, values, null, k, true)[0], 0);
  }

  /** The 0-based index of a largest value (the first one among equals). */
  public static Secret argmax(Numeric b, SecretVector values, int k) {
    long[] indices = new long[values.length()];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = i;
    }
    return b.get(reduce(b, values, b.known(indices), k, true)[1], 0);
  }

  /** Folds values (and their indices) to one by repeated pairwise comparison of the halves. */
  private static SecretVector[] reduce(
      Numeric b, SecretVector values, SecretVector indices, int k, boolean largest) {
    int n = values.length();
    if (n == 0) {
      throw new IllegalArgumentException("the extreme of an empty list is undefined");
    }
    while (n > 1) {
      int half = n / 2;
      SecretVector left = b.slice(values, 0, half);
      SecretVector right = b.slice(values, half, 2 * half);
      // take the right one when it is strictly better, so the first of equals wins
      SecretVector takeRight =
          largest ? Comparison.lessThan(b, left, right, k) : Comparison.lessThan(b, right, left, k);
      SecretVector winners = Select.mux(b, takeRight, right, left);
      SecretVector winnerIndices = null;
      if (indices != null) {
        winnerIndices =
            Select.mux(b, takeRight, b.slice(indices, half, 2 * half), b.slice(indices, 0, half));
      }
      if (n % 2 == 1) {
        winners = b.concat(winners, b.slice(values, n - 1, n));
        if (indices != null) {
          winnerIndices = b.concat(winnerIndices, b.slice(indices, n - 1, n));
        }
      }
      values = winners;
      indices = winnerIndices;
      n = values.length();
    }
    return new SecretVector[] {values, indices};
  }
}
