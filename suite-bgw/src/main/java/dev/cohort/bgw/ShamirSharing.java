package dev.cohort.bgw;

import dev.cohort.field.Field;
import java.math.BigInteger;

/**
 * The fixed linear algebra of Shamir sharing for one (n, t): party {@code i} holds the evaluation
 * at {@code x_i = i + 1}. Every Lagrange vector the protocols need is computed once here, with
 * {@link BigInteger}, and stored as packed field elements.
 *
 * <p>Dealing with pairwise seeds: dealer {@code i} shares a seed with each party of {@code T_i =
 * {P_(i+1), ..., P_(i+t)}} (indices mod n). The shares of {@code T_i} are drawn from those seeds;
 * with {@code q(0) = secret} they fix the degree-t polynomial, and the shares of the other parties
 * are the linear combinations {@link #dealCoefficients} of those t + 1 values.
 *
 * <p>On multi-word fields party j's share is x_j·ρ for the value ρ it draws ({@link #seedScale}),
 * still uniform. At t = 1 the dealer's coefficients are then q(x_k) = (1 − x_k/x_j)·q(0) + x_k·ρ:
 * the 1/x_j that made the coefficient of ρ a dense constant (1/3, 2/3 at n = 3) moves to the
 * secret's, where the recombination weight of a multiplication, a binomial, cancels it at n = 3;
 * every constant is then ±u·2^s with a small u, which 2^127 − 1 multiplies by with two 64-bit
 * products instead of eight. The seeded party pays one such product per element (none at x_j = 1).
 */
final class ShamirSharing {

  final Field field;
  final int parties;
  final int threshold;
  private final BigInteger p;

  /** λ^S_i(0) for S = {P_0 .. P_2t}: recombines reshared products (GRR). */
  final long[] recombine;

  /** λ_i(0) over P_0 .. P_t: reconstructs a secret from the first t + 1 shares. */
  final long[] reconstruct;

  /** check[j - t - 1]: λ_i(x_j) over P_0 .. P_t, predicting share j from the first t + 1. */
  final long[][] check;

  /**
   * dealCoefficients[k]: for a party k outside T_dealer, the t + 1 coefficients that give q(x_k)
   * from q(0) and q(x_j) for j in T_dealer (in the order of {@link #seeded}); null for k in
   * T_dealer. Only the one dealer's: a party deals only its own polynomials, and all n dealers'
   * cost n²·t² big-integer products (seconds per party at n = 31).
   */
  final long[][] dealCoefficients;

  /** x_k, packed, by which party k scales what it draws from a dealer's seed; null: not scaled. */
  final long[] seedScale;

  /** The sharing of (n, t) with the dealing coefficients of {@code dealer} (this party). */
  ShamirSharing(Field field, int parties, int threshold, int dealer) {
    this.field = field;
    this.parties = parties;
    this.threshold = threshold;
    this.p = field.modulus();
    recombine = lagrangeAt(range(0, 2 * threshold + 1), BigInteger.ZERO);
    reconstruct = lagrangeAt(range(0, threshold + 1), BigInteger.ZERO);
    check = new long[parties - threshold - 1][];
    for (int j = threshold + 1; j < parties; j++) {
      check[j - threshold - 1] = lagrangeAt(range(0, threshold + 1), x(j));
    }
    boolean scaleSeeded = field.words() > 1;
    seedScale = scaleSeeded ? field.alloc(parties) : null;
    for (int k = 0; scaleSeeded && k < parties; k++) {
      field.encode(x(k), seedScale, k);
    }
    dealCoefficients = new long[parties][];
    BigInteger[] points = new BigInteger[threshold + 1];
    points[0] = BigInteger.ZERO;
    for (int m = 0; m < threshold; m++) {
      points[m + 1] = x(seeded(dealer, m));
    }
    for (int k = 0; k < parties; k++) {
      if (!isSeeded(dealer, k)) {
        long[] c = lagrange(points, x(k));
        for (int m = 0; scaleSeeded && m < threshold; m++) {
          field.mul(c, m + 1, seedScale, seeded(dealer, m), c, m + 1, 1); // ρ_j·x_j
        }
        dealCoefficients[k] = c;
      }
    }
  }

  /** The m-th party (m < t) whose share of dealer's polynomials comes from a pairwise seed. */
  int seeded(int dealer, int m) {
    return (dealer + 1 + m) % parties;
  }

  /** True when party k draws its share of dealer's polynomials from their pairwise seed. */
  boolean isSeeded(int dealer, int k) {
    int distance = Math.floorMod(k - dealer, parties);
    return distance >= 1 && distance <= threshold;
  }

  private static BigInteger x(int party) {
    return BigInteger.valueOf(party + 1L);
  }

  private static BigInteger[] range(int from, int to) {
    BigInteger[] points = new BigInteger[to - from];
    for (int i = from; i < to; i++) {
      points[i - from] = x(i);
    }
    return points;
  }

  private long[] lagrangeAt(BigInteger[] points, BigInteger z) {
    return lagrange(points, z);
  }

  /** The Lagrange basis over {@code points} evaluated at {@code z}, packed. */
  private long[] lagrange(BigInteger[] points, BigInteger z) {
    long[] out = field.alloc(points.length);
    for (int j = 0; j < points.length; j++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int m = 0; m < points.length; m++) {
        if (m != j) {
          num = num.multiply(z.subtract(points[m])).mod(p);
          den = den.multiply(points[j].subtract(points[m])).mod(p);
        }
      }
      field.encode(num.multiply(den.modInverse(p)).mod(p), out, j);
    }
    return out;
  }
}
