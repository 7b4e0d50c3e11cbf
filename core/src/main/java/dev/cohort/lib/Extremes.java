package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import java.util.ArrayList;
import java.util.List;

/**
 * Minimum, maximum, argmin and argmax of a list of k-bit signed secrets, as a tournament tree: each
 * level compares the two halves of what is left as one batch, so a list of n values costs ⌈log2 n⌉
 * comparison rounds and n − 1 comparisons.
 *
 * <p>Invariant of argmin and argmax: in every comparison the left contender stands for positions
 * that all come before those of the right one, and the right one wins only when strictly better, so
 * the first index among equals wins. Pairing element i with element i + n/2 does not keep that
 * order past the first level, so the values are first laid out (a public permutation, local) in the
 * order in which the tournament's tree visits its leaves.
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
    return argExtreme(b, values, k, true);
  }

  /** The 0-based index of a smallest value (the first one among equals). */
  public static Secret argmin(Numeric b, SecretVector values, int k) {
    return argExtreme(b, values, k, false);
  }

  private static Secret argExtreme(Numeric b, SecretVector values, int k, boolean largest) {
    int[] order = leafOrder(values.length());
    List<Secret> laidOut = new ArrayList<>(order.length);
    long[] indices = new long[order.length];
    for (int p = 0; p < order.length; p++) {
      laidOut.add(b.get(values, order[p]));
      indices[p] = order[p];
    }
    SecretVector permuted = order.length == 0 ? values : b.vector(laidOut);
    return b.get(reduce(b, permuted, b.known(indices), k, largest)[1], 0);
  }

  /**
   * For each position of the tournament's first level, the index of the value to place there: the
   * leaves of the tree that {@link #reduce} builds, numbered in the order a left-first walk visits
   * them.
   */
  static int[] leafOrder(int n) {
    // level[p] holds the leaf positions under the contender at position p, in walk order
    int[][] level = new int[n][];
    for (int p = 0; p < n; p++) {
      level[p] = new int[] {p};
    }
    while (level.length > 1) {
      int m = level.length;
      int half = m / 2;
      int[][] next = new int[half + m % 2][];
      for (int i = 0; i < half; i++) {
        int[] left = level[i];
        int[] right = level[half + i];
        int[] both = java.util.Arrays.copyOf(left, left.length + right.length);
        System.arraycopy(right, 0, both, left.length, right.length);
        next[i] = both;
      }
      if (m % 2 == 1) {
        next[half] = level[m - 1];
      }
      level = next;
    }
    int[] order = new int[n];
    if (n > 0) {
      int[] walk = level[0];
      for (int rank = 0; rank < n; rank++) {
        order[walk[rank]] = rank;
      }
    }
    return order;
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
      // take the right one when it is strictly better, so the left one wins ties
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
