package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import java.math.BigInteger;

/**
 * Signed fixed-point numbers: a real x is held as the k-bit integer round(x · 2^f), f fractional
 * bits. Addition and subtraction are exact and local; multiplication multiplies the integers and
 * truncates by 2^f (error below 2^−f, rounding toward −∞); division computes x·2^f / y rounded
 * toward zero (error below 2^−f for the quotient of the represented values). With f = 0 these are
 * integers: multiplication does not truncate.
 *
 * @param k total bits of the representation, sign included
 * @param f fractional bits, {@code 0 <= f < k}
 * @param kappa statistical security of the truncations and comparisons
 */
public record FixedPoint(int k, int f, int kappa) {

  public FixedPoint {
    if (f < 0 || f >= k) {
      throw new IllegalArgumentException(
          "fractional bits (" + f + ") must be in [0, k = " + k + ")");
    }
  }

  /** k bits with f fractional bits and the default κ. */
  public static FixedPoint of(int k, int f) {
    return new FixedPoint(k, f, Comparison.DEFAULT_KAPPA);
  }

  /** The integer representation of {@code x}: round(x · 2^f). */
  public long encode(double x) {
    double scaled = Math.rint(x * Math.scalb(1.0, f));
    double bound = Math.scalb(1.0, k - 1);
    if (scaled < -bound || scaled >= bound) {
      throw new IllegalArgumentException(
          x + " does not fit a " + k + "-bit fixed-point number with " + f + " fractional bits");
    }
    return (long) scaled;
  }

  /** The real a representation stands for. */
  public double decode(long representation) {
    return Math.scalb((double) representation, -f);
  }

  public SecretVector add(Numeric b, SecretVector x, SecretVector y) {
    return b.add(x, y);
  }

  public SecretVector sub(Numeric b, SecretVector x, SecretVector y) {
    return b.sub(x, y);
  }

  /**
   * x · y, truncated back to f fractional bits: one multiplication and one truncation (none for f =
   * 0).
   */
  public SecretVector mul(Numeric b, SecretVector x, SecretVector y) {
    SecretVector product = b.mul(x, y);
    return f == 0 ? product : Comparison.truncate(b, product, 2 * k, f, kappa);
  }

  /** Secret integers (of k − f bits) as fixed-point numbers: local. */
  public SecretVector fromInteger(Numeric b, SecretVector integers) {
    return b.mul(integers, BigInteger.ONE.shiftLeft(f));
  }

  /** ⌊x⌋ as secret integers. */
  public SecretVector toInteger(Numeric b, SecretVector x) {
    return f == 0 ? x : Comparison.truncate(b, x, k, f, kappa);
  }

  /**
   * x / y for y ≠ 0, rounded toward zero at f fractional bits: ⌊|x|·2^f / |y|⌋ with the sign of
   * x·y, by long division over k + f bits (k + f sequential comparison rounds).
   */
  public SecretVector div(Numeric b, SecretVector x, SecretVector y) {
    SecretVector scaled = b.mul(x, BigInteger.ONE.shiftLeft(f));
    return Division.signedBySecret(b, scaled, k + f, y, k, kappa);
  }
}
