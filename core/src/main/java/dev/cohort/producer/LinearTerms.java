package dev.cohort.producer;

import dev.cohort.api.Numeric;
import dev.cohort.field.Field;
import dev.cohort.gate.LinearForm;
import dev.cohort.gate.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The terms of one linear form ({@link Numeric#linear}) as a builder collects them: term t reads
 * row {@code rows[t]} of one of a few distinct vectors, with small public coefficients. The gate
 * takes each distinct vector once as an input, however many of its rows the form reads.
 */
final class LinearTerms {

  private final int n;
  private final List<Value> inputs = new ArrayList<>(2); // few: usually one to three
  private final int[] input;
  private final int[] offsets;
  private final long[][] coefficients;
  private int terms;

  /** Room for {@code k} terms over rows of {@code n} elements. */
  LinearTerms(int n, int k) {
    this.n = n;
    this.input = new int[k];
    this.offsets = new int[k];
    this.coefficients = new long[k][];
  }

  /** Fails unless there is one row and one coefficient array per vector, and n constants. */
  static void checkShape(int n, int k, int[] rows, List<long[]> coefficients, long[] constants) {
    if (n < 0 || rows.length != k || coefficients.size() != k) {
      throw new IllegalArgumentException(
          "a linear form needs one row and one coefficient array per vector: "
              + k
              + " vectors, "
              + rows.length
              + " rows, "
              + coefficients.size()
              + " coefficient arrays, n = "
              + n);
    }
    if (constants != null && constants.length != n) {
      throw new IllegalArgumentException(
          constants.length + " constants for a linear form of " + n + " elements");
    }
  }

  /** The next term: row {@code row} of {@code vector} times {@code c} (null: all ones). */
  void add(Value vector, int row, long[] c) {
    if (row < 0 || (long) (row + 1) * n > vector.length()) {
      throw new IllegalArgumentException(
          "row " + row + " of " + n + " elements is outside a vector of length " + vector.length());
    }
    int at = inputs.indexOf(vector);
    if (at < 0) {
      at = inputs.size();
      inputs.add(vector);
    }
    input[terms] = at;
    offsets[terms] = row * n;
    coefficients[terms] = checkedCoefficients(c, n);
    terms++;
  }

  /** The form of the terms added, plus {@code constants} (packed elements, or null). */
  LinearForm form(long[] constants) {
    return new LinearForm(input, offsets, coefficients, constants);
  }

  /** The distinct vectors the terms read, in the order the form's {@code input} indexes them. */
  Value[] inputs() {
    return inputs.toArray(new Value[0]);
  }

  private static long[] checkedCoefficients(long[] c, int n) {
    if (c == null) {
      return null;
    }
    if (c.length != n) {
      throw new IllegalArgumentException(c.length + " coefficients for a row of " + n);
    }
    long bound = Field.LINEAR_COEFFICIENT_BOUND;
    for (long x : c) {
      if (x <= -bound || x >= bound) {
        throw new IllegalArgumentException(
            "coefficient " + x + " of a linear form is not below 2^31 in magnitude");
      }
    }
    return c;
  }
}
