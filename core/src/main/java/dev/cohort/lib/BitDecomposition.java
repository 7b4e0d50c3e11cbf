package dev.cohort.lib;

import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;

/**
 * Bit decomposition of k-bit signed secrets into their k two's-complement bits [DFK+06, with the
 * masking of CdH10] (Damgård, Fitzi, Kiltz, Nielsen, Toft 2006).
 *
 * <p>Open c = 2^(k−1) + a + r' + 2^k·r'' with k random bits r' and a κ-bit r''; then a mod 2^k =
 * (c' − r') mod 2^k with c' = (c − 2^(k−1)) mod 2^k public. The subtraction is the addition c' +
 * ¬r' + 1 with a carry-lookahead (Kogge–Stone) prefix over (generate, propagate) pairs: ⌈log2 k⌉
 * rounds, about 2k·log2 k multiplications, then one round for the sum bits.
 */
public final class BitDecomposition {

  private BitDecomposition() {}

  /**
   * The k bits of each a mod 2^k, bit-major: bit i of value j at {@code i * n + j}; bit k − 1 is
   * the sign.
   */
  public static SecretVector decompose(Numeric b, SecretVector a, int k, int kappa) {
    Comparison.requireField(b, k, kappa, "bit decomposition of " + k + "-bit values");
    int n = a.length();
    if (n == 0) {
      return a;
    }
    Masking mask = Masking.draw(b, n, k, kappa);
    Step<SecretVector> bits =
        mask.open(b, Masking.offset(b, a, k))
            .seq(
                (s, c) -> {
                  long[][] cBits = Bits.publicBits(c, n, k, true);
                  return Deferred.of(subtract(s, cBits, mask.rBits(), n, k));
                });
    return b.vectorOf(bits, n * k);
  }

  /** The bits of (c − r) mod 2^k = c + ¬r + 1, for public c and secret bit-major r. */
  private static SecretVector subtract(Numeric b, long[][] c, SecretVector rBits, int n, int k) {
    SecretVector[] generate = new SecretVector[k];
    SecretVector[] propagate = new SecretVector[k];
    for (int i = 0; i < k; i++) {
      SecretVector x = Comparison.not(b, Bits.bit(b, rBits, n, i)); // ¬r_i
      long[] ci = c[i];
      long[] oneMinusTwoC = new long[n];
      for (int j = 0; j < n; j++) {
        oneMinusTwoC[j] = 1 - 2 * ci[j];
      }
      generate[i] = b.mul(x, ci); // c_i · x_i
      propagate[i] = b.add(b.mul(x, oneMinusTwoC), ci); // c_i xor x_i
    }
    SecretVector[] p = propagate.clone();
    // carry-in 1: the carry out of bit 0 is g_0 + p_0 (they never both hold)
    SecretVector[] g = generate.clone();
    g[0] = b.add(generate[0], propagate[0]);
    SecretVector[] pp = propagate.clone();
    pp[0] = null; // P over a range that includes bit 0 is never needed: the carry-in absorbs it
    for (int span = 1; span < k; span <<= 1) {
      SecretVector[] nextG = g.clone();
      SecretVector[] nextP = pp.clone();
      for (int i = span; i < k; i++) {
        // (G, P)[i] ∘ (G, P)[i - span]
        nextG[i] = b.add(g[i], b.mul(pp[i], g[i - span]));
        nextP[i] = pp[i - span] == null ? null : b.mul(pp[i], pp[i - span]);
      }
      g = nextG;
      pp = nextP;
    }
    // g[i] is now the carry out of bit i; the carry into bit i is g[i - 1] (1 into bit 0)
    SecretVector[] sum = new SecretVector[k];
    sum[0] = Comparison.not(b, p[0]);
    for (int i = 1; i < k; i++) {
      SecretVector carry = g[i - 1];
      sum[i] = b.sub(b.add(p[i], carry), b.mul(b.mul(p[i], carry), 2));
    }
    SecretVector all = sum[0];
    for (int i = 1; i < k; i++) {
      all = b.concat(all, sum[i]);
    }
    return all;
  }
}
