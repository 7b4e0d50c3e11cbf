package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import java.util.ArrayList;
import java.util.List;

/**
 * Oblivious sorting of k-bit signed secrets by Batcher's odd-even merge sort (Batcher 1968), with
 * optional payload columns that move with their keys. The network depends only on the length, so
 * nothing about the values leaks. Each layer of disjoint compare-exchanges is one batched
 * comparison: ⌈log2 n⌉(⌈log2 n⌉ + 1)/2 layers, O(n log² n) comparisons.
 */
public final class Sorting {

  private Sorting() {}

  /** The keys in ascending order. */
  public static SecretVector sort(Numeric b, SecretVector keys, int k) {
    return sort(b, keys, List.of(), k).get(0);
  }

  /**
   * Sorts {@code keys} ascending and applies the same permutation to every payload column. Returns
   * the sorted keys followed by the permuted payloads. The sort is not stable.
   */
  public static List<SecretVector> sort(
      Numeric b, SecretVector keys, List<SecretVector> payloads, int k) {
    int n = keys.length();
    for (SecretVector p : payloads) {
      if (p.length() != n) {
        throw new IllegalArgumentException(
            "payload of length " + p.length() + " for " + n + " keys");
      }
    }
    List<SecretVector> columns = new ArrayList<>();
    columns.add(keys);
    columns.addAll(payloads);
    for (int[][] layer : layers(n)) {
      columns = compareExchange(b, columns, layer[0], layer[1], k);
    }
    return columns;
  }

  /** One layer: for every pair (lo[i], hi[i]) put the smaller key at lo[i]. */
  private static List<SecretVector> compareExchange(
      Numeric b, List<SecretVector> columns, int[] lo, int[] hi, int k) {
    SecretVector keys = columns.get(0);
    SecretVector x = gather(b, keys, lo);
    SecretVector y = gather(b, keys, hi);
    SecretVector swap = Comparison.lessThan(b, y, x, k);
    List<SecretVector> out = new ArrayList<>(columns.size());
    for (SecretVector column : columns) {
      SecretVector cx = column == keys ? x : gather(b, column, lo);
      SecretVector cy = column == keys ? y : gather(b, column, hi);
      SecretVector newLo = Select.mux(b, swap, cy, cx);
      SecretVector newHi = b.sub(b.add(cx, cy), newLo); // the other one, without a multiplication
      out.add(scatter(b, column, lo, hi, newLo, newHi));
    }
    return out;
  }

  private static SecretVector gather(Numeric b, SecretVector v, int[] positions) {
    List<Secret> picked = new ArrayList<>(positions.length);
    for (int p : positions) {
      picked.add(b.get(v, p));
    }
    return b.vector(picked);
  }

  private static SecretVector scatter(
      Numeric b, SecretVector v, int[] lo, int[] hi, SecretVector newLo, SecretVector newHi) {
    Secret[] elements = new Secret[v.length()];
    for (int i = 0; i < lo.length; i++) {
      elements[lo[i]] = b.get(newLo, i);
      elements[hi[i]] = b.get(newHi, i);
    }
    for (int i = 0; i < elements.length; i++) {
      if (elements[i] == null) {
        elements[i] = b.get(v, i);
      }
    }
    return b.vector(List.of(elements));
  }

  /** The comparator layers of odd-even merge sort for any n: pairs {lo[], hi[]} per layer. */
  static List<int[][]> layers(int n) {
    List<int[][]> layers = new ArrayList<>();
    for (int p = 1; p < n; p <<= 1) {
      for (int k = p; k >= 1; k >>= 1) {
        List<Integer> lo = new ArrayList<>();
        List<Integer> hi = new ArrayList<>();
        for (int j = k % p; j + k < n; j += 2 * k) {
          for (int i = 0; i < Math.min(k, n - j - k); i++) {
            if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
              lo.add(i + j);
              hi.add(i + j + k);
            }
          }
        }
        if (!lo.isEmpty()) {
          layers.add(
              new int[][] {
                lo.stream().mapToInt(Integer::intValue).toArray(),
                hi.stream().mapToInt(Integer::intValue).toArray()
              });
        }
      }
    }
    return layers;
  }
}
