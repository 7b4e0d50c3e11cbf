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
 *
 * <p>Invariant: a key set is named by its t outsiders, a sorted {@code int[]} of party indices, so
 * any number of parties works (an {@code int} bit mask wrapped at n = 31 and left every share
 * zero); every party lists the sets it belongs to in the same lexicographic order of outsiders,
 * enumerated directly (C(n − 1, t) sets, never the 2^n subsets).
 */
final class Prss {

  /**
   * The key sets containing {@code party}, each as its sorted outsiders, in increasing
   * lexicographic order: every party lists the sets it shares with another in the same order.
   */
  static List<int[]> setsOf(int party, int parties, int threshold) {
    int[] others = new int[parties - 1]; // {0..n-1} \ {party}, increasing
    for (int j = 0, k = 0; j < parties; j++) {
      if (j != party) {
        others[k++] = j;
      }
    }
    // c: positions in others of the outsiders, a t-combination stepped in lexicographic order
    int[] c = new int[threshold];
    for (int m = 0; m < threshold; m++) {
      c[m] = m;
    }
    List<int[]> sets = new ArrayList<>();
    while (true) {
      int[] outsiders = new int[threshold];
      for (int m = 0; m < threshold; m++) {
        outsiders[m] = others[c[m]];
      }
      sets.add(outsiders);
      int m = threshold - 1;
      while (m >= 0 && c[m] == others.length - threshold + m) {
        m--;
      }
      if (m < 0) {
        return sets;
      }
      c[m]++;
      for (int k = m + 1; k < threshold; k++) {
        c[k] = c[k - 1] + 1;
      }
    }
  }

  /** The lowest party of the set with these sorted outsiders: it deals the set's key. */
  static int lowestMember(int[] outsiders) {
    int j = 0;
    for (int o : outsiders) {
      if (o != j) {
        return j;
      }
      j++;
    }
    return j;
  }

  /** True when {@code party} belongs to the set with these sorted outsiders. */
  static boolean isMember(int[] outsiders, int party) {
    for (int o : outsiders) {
      if (o == party) {
        return false;
      }
    }
    return true;
  }

  /** C(n, t) exactly, or {@link Long#MAX_VALUE} when it does not fit in a long. */
  static long setCount(int parties, int threshold) {
    BigInteger c = BigInteger.ONE;
    for (int i = 0; i < threshold; i++) {
      c = c.multiply(BigInteger.valueOf(parties - i)).divide(BigInteger.valueOf(i + 1L));
    }
    return c.bitLength() < 64 ? c.longValue() : Long.MAX_VALUE;
  }

  private final Field field;
  private final int[][] sets; // the outsiders of the sets containing this party, stream order
  private final Prg[] streams;
  private final Prg[] bitStreams; // a second, independent stream of each key: uniform bits
  private final long[] coefficients; // f_A(x_self), packed, one per stream
  private long[] scratch = new long[0];

  /**
   * {@code keys} are the PRGs of the sets containing this party, in the order of {@link #setsOf};
   * {@code bitKeys} are other streams of the same keys, for {@link #bitsWithout}.
   */
  Prss(Field field, int self, List<int[]> mySets, List<Prg> keys, List<Prg> bitKeys) {
    this.field = field;
    this.sets = mySets.toArray(new int[0][]);
    this.streams = keys.toArray(new Prg[0]);
    this.bitStreams = bitKeys.toArray(new Prg[0]);
    this.coefficients = field.alloc(sets.length);
    BigInteger p = field.modulus();
    BigInteger xSelf = BigInteger.valueOf(self + 1L);
    for (int s = 0; s < sets.length; s++) {
      BigInteger num = BigInteger.ONE;
      BigInteger den = BigInteger.ONE;
      for (int j : sets[s]) {
        BigInteger xj = BigInteger.valueOf(j + 1L);
        num = num.multiply(xSelf.subtract(xj)).mod(p);
        den = den.multiply(xj.negate()).mod(p);
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
    for (int s = 0; s < sets.length; s++) {
      if (sets[s].length == 1 && sets[s][0] == outsider) {
        return bitStreams[s];
      }
    }
    throw new IllegalStateException(
        "no PRSS key for the set without P" + outsider + " (key sets: " + sets.length + ")");
  }
}
