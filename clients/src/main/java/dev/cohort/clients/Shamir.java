package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import java.math.BigInteger;

/**
 * Shamir sharing as the BGW suite holds it (server {@code i} holds the evaluation at {@code x_i = i
 * + 1}), for a dealer outside the mesh and for checks on a whole vector of shares: dealing, the
 * prediction of shares {@code t + 1 .. n - 1} from the first {@code t + 1} (a degree-t check), and
 * interpolation at 0 through all {@code n} shares (exact for every degree below n).
 */
final class Shamir {

  final Field field;
  final int parties;
  final int threshold;
  private final long[] points; // x_i = i + 1, packed

  /** predict[j - t - 1]: λ_i(x_j) over x_0 .. x_t. */
  private final long[][] predict;

  /** λ_i(0) over all n points. */
  private final long[] atZero;

  Shamir(Field field, int parties, int threshold) {
    if (threshold < 1 || 2 * threshold >= parties) {
      throw new IllegalArgumentException(
          "threshold " + threshold + " needs 1 <= t < n/2 with n = " + parties);
    }
    this.field = field;
    this.parties = parties;
    this.threshold = threshold;
    this.points = field.alloc(parties);
    for (int i = 0; i < parties; i++) {
      field.encode(i + 1L, points, i);
    }
    predict = new long[parties - threshold - 1][];
    for (int j = threshold + 1; j < parties; j++) {
      predict[j - threshold - 1] = lagrange(threshold + 1, BigInteger.valueOf(j + 1L));
    }
    atZero = lagrange(parties, BigInteger.ZERO);
  }

  /** λ_i(z) for the interpolation through x_0 .. x_(count-1), packed. */
  private long[] lagrange(int count, BigInteger z) {
    BigInteger p = field.modulus();
    long[] out = field.alloc(count);
    for (int i = 0; i < count; i++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      BigInteger xi = BigInteger.valueOf(i + 1L);
      for (int k = 0; k < count; k++) {
        if (k != i) {
          BigInteger xk = BigInteger.valueOf(k + 1L);
          num = num.multiply(z.subtract(xk)).mod(p);
          den = den.multiply(xi.subtract(xk)).mod(p);
        }
      }
      field.encode(num.multiply(den.modInverse(p)).mod(p), out, i);
    }
    return out;
  }

  /**
   * Deals {@code count} secrets (packed in {@code secrets} from element {@code so}; null for all
   * zero) with random polynomials of degree {@code degree}: server {@code i}'s shares go to {@code
   * out[i]} from element {@code oo}.
   */
  void deal(long[] secrets, int so, int count, int degree, Prg prg, long[][] out, int oo) {
    int w = field.words();
    long[] coefficients = field.alloc(degree);
    long[] acc = field.alloc(1);
    long[] zero = field.alloc(1);
    for (int e = 0; e < count; e++) {
      field.random(prg, coefficients, 0, degree);
      for (int i = 0; i < parties; i++) {
        // Horner: ((a_d x + a_(d-1)) x + ... + a_1) x + secret
        System.arraycopy(coefficients, (degree - 1) * w, acc, 0, w);
        for (int m = degree - 2; m >= 0; m--) {
          field.mul(acc, 0, points, i, acc, 0, 1);
          field.add(acc, 0, coefficients, m, acc, 0, 1);
        }
        field.mul(acc, 0, points, i, acc, 0, 1);
        field.add(
            acc, 0, secrets == null ? zero : secrets, secrets == null ? 0 : so + e, acc, 0, 1);
        System.arraycopy(acc, 0, out[i], (oo + e) * w, w);
      }
    }
  }

  /**
   * True when the n values {@code values[i]} (one element each, at element {@code at}) lie on one
   * polynomial of degree at most t.
   */
  boolean onDegreeT(long[][] values, int at, long[] scratch) {
    int w = field.words();
    for (int j = threshold + 1; j < parties; j++) {
      long[] lambda = predict[j - threshold - 1];
      java.util.Arrays.fill(scratch, 0, w, 0L);
      for (int i = 0; i <= threshold; i++) {
        field.scaleAdd(values[i], at, lambda, i, scratch, 0, 1);
      }
      if (!field.equal(scratch, 0, values[j], at)) {
        return false;
      }
    }
    return true;
  }

  /** The interpolation at 0 through all n values {@code values[i]} (element {@code at}). */
  void interpolateAtZero(long[][] values, int at, long[] out, int oo) {
    int w = field.words();
    java.util.Arrays.fill(out, oo * w, (oo + 1) * w, 0L);
    for (int i = 0; i < parties; i++) {
      field.scaleAdd(values[i], at, atZero, i, out, oo, 1);
    }
  }
}
