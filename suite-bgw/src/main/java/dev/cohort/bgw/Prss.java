package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Pseudo-random secret sharing [CDI05]: random Shamir sharings without communication.
 *
 * <p>For every set A of n − t parties there is a key K_A known to A's members (set up once: the
 * lowest member sends it). f_A is the degree-t polynomial with f_A(0) = 1 and f_A(x_j) = 0 for
 * every P_j outside A. Party i's share of the c-th random element is Σ_{A ∋ i} PRF(K_A, c) ·
 * f_A(x_i); the secret is Σ_A PRF(K_A, c), unknown to any t parties since each misses some K_A.
 * Cost: C(n − 1, t) PRF draws per element per party.
 */
final class Prss {

  /** The key sets as bit masks, in increasing order: every party enumerates them alike. */
  static List<Integer> sets(int parties, int threshold) {
    List<Integer> sets = new ArrayList<>();
    for (int mask = 0; mask < (1 << parties); mask++) {
      if (Integer.bitCount(mask) == parties - threshold) {
        sets.add(mask);
      }
    }
    return sets;
  }

  /** C(n, t), without enumerating. */
  static long setCount(int parties, int threshold) {
    long c = 1;
    for (int i = 0; i < threshold; i++) {
      c = c * (parties - i) / (i + 1);
    }
    return c;
  }

  private final Field field;
  private final int parties;
  private final int[] masks; // the sets containing this party, in the order of the streams
  private final Prg[] streams;
  private final Prg[] bitStreams; // a second, independent stream of each key: uniform bits
  private final long[] coefficients; // f_A(x_self), packed, one per stream
  private long[] scratch = new long[0];

  /**
   * {@code keys} are the PRGs of the sets containing this party, in the order of {@link #sets};
   * {@code bitKeys} are other streams of the same keys, for {@link #bitsWithout}.
   */
  Prss(
      Field field, int self, int parties, List<Integer> mySets, List<Prg> keys, List<Prg> bitKeys) {
    this.field = field;
    this.parties = parties;
    this.masks = new int[mySets.size()];
    for (int s = 0; s < masks.length; s++) {
      masks[s] = mySets.get(s);
    }
    this.streams = keys.toArray(new Prg[0]);
    this.bitStreams = bitKeys.toArray(new Prg[0]);
    this.coefficients = field.alloc(mySets.size());
    BigInteger p = field.modulus();
    BigInteger xSelf = BigInteger.valueOf(self + 1L);
    for (int s = 0; s < mySets.size(); s++) {
      int mask = mySets.get(s);
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int j = 0; j < parties; j++) {
        if ((mask & (1 << j)) == 0) {
          BigInteger xj = BigInteger.valueOf(j + 1L);
          num = num.multiply(xSelf.subtract(xj)).mod(p);
          den = den.multiply(xj.negate()).mod(p);
        }
      }
      field.encode(num.multiply(den.modInverse(p)).mod(p), coefficients, s);
    }
  }

  /** This party's shares of {@code m} fresh random elements. */
  long[] next(int m) {
    long[] out = field.alloc(m);
    if (scratch.length < out.length) {
      scratch = new long[out.length];
    }
    for (int s = 0; s < streams.length; s++) {
      field.random(streams[s], scratch, 0, m);
      field.scaleAdd(scratch, 0, coefficients, s, out, 0, m);
    }
    return out;
  }

  /**
   * The bit stream of the set of every party but {@code outsider} (the key sets at t = 1), which
   * this party must belong to: its members draw the same words from it when they draw alike.
   */
  Prg bitsWithout(int outsider) {
    int mask = ((1 << parties) - 1) & ~(1 << outsider);
    for (int s = 0; s < masks.length; s++) {
      if (masks[s] == mask) {
        return bitStreams[s];
      }
    }
    throw new IllegalStateException(
        "no PRSS key for the set without P" + outsider + " (parties: " + parties + ")");
  }
}
