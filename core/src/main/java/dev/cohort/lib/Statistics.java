package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import java.math.BigInteger;
import java.util.List;

/**
 * Sums, means and variances of k-bit signed secrets; means and variances come back as fixed-point
 * numbers with f fractional bits (see {@link FixedPoint}).
 */
public final class Statistics {

  private Statistics() {}

  /** The sum: local. */
  public static Secret sum(Numeric b, SecretVector x) {
    return b.sum(x);
  }

  /** The mean, with {@code f} fractional bits, rounded toward −∞: one public division. */
  public static Secret mean(Numeric b, SecretVector x, int k, int f) {
    int n = requireNonEmpty(x);
    int sumBits = k + bits(n);
    SecretVector scaled = b.mul(b.vector(List.of(b.sum(x))), BigInteger.ONE.shiftLeft(f));
    return b.get(Division.byConstant(b, scaled, n, sumBits + f), 0);
  }

  /**
   * The population variance Σ(x − mean)² / n = (n·Σx² − (Σx)²) / n², with {@code f} fractional
   * bits, rounded toward −∞: one multiplication round and one public division.
   */
  public static Secret variance(Numeric b, SecretVector x, int k, int f) {
    int n = requireNonEmpty(x);
    Secret sum = b.sum(x);
    Secret squares = b.innerProduct(x, x);
    Secret numerator = b.sub(b.mul(squares, n), b.mul(sum, sum));
    int numeratorBits = 2 * k + 2 * bits(n) + 1;
    SecretVector scaled = b.mul(b.vector(List.of(numerator)), BigInteger.ONE.shiftLeft(f));
    long divisor = Math.multiplyExact((long) n, n);
    return b.get(Division.byConstant(b, scaled, divisor, numeratorBits + f), 0);
  }

  /**
   * The filtered average Σ x_i·y_i / Σ y_i for selection bits y_i ∈ {0, 1}, with {@code f}
   * fractional bits, rounded toward zero. One multiplication round for the numerator, then a
   * division by the secret count (long division: k + log2 n + f comparison rounds). When nothing is
   * selected the count is 0 and the result is meaningless: open the count first if that can happen.
   */
  public static Secret filteredAverage(
      Numeric b, SecretVector x, SecretVector selected, int k, int f) {
    int n = requireNonEmpty(x);
    SecretVector numerator =
        b.mul(b.vector(List.of(b.innerProduct(x, selected))), BigInteger.ONE.shiftLeft(f));
    SecretVector count = b.vector(List.of(b.sum(selected)));
    int numeratorBits = k + bits(n) + f;
    return b.get(
        Division.signedBySecret(
            b, numerator, numeratorBits, count, bits(n) + 1, Comparison.DEFAULT_KAPPA),
        0);
  }

  private static int requireNonEmpty(SecretVector x) {
    if (x.length() == 0) {
      throw new IllegalArgumentException("statistics of an empty list are undefined");
    }
    return x.length();
  }

  /** Bits needed to hold n: ⌈log2(n + 1)⌉. */
  private static int bits(long n) {
    return 64 - Long.numberOfLeadingZeros(n);
  }
}
