package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.parallel.Workers;

/**
 * Configuration of the BGW suite.
 *
 * @param field the field; 2^61 - 1 is the fast default
 * @param threshold the most corrupt parties tolerated, {@code 1 <= t < n / 2}; 0 means the default
 *     {@code floor((n - 1) / 2)} for the number of parties of the run
 * @param prssLimit the largest number of PRSS key sets C(n, t) for which random elements come from
 *     pseudo-random secret sharing (no communication; each party draws C(n − 1, t) PRF streams per
 *     element and receives up to that many keys at set-up); above it, parties deal random sharings
 *     and sum them (one round). C(n, t) is compared exactly, however large (C(63, 31) exceeds a
 *     {@code long}), so large n with the default threshold always deals
 * @param dealtBitsUpTo random bits are the XOR of bits dealt by t + 1 parties (t multiplications
 *     per bit) when t is at most this; above it, the square-root trick (one multiplication, one
 *     opening and a modular square root per bit)
 * @param threads the threads a party splits its large local kernels over (dealing and resharing:
 *     the PRG expansion of seeded shares, the combinations, the sums of received shares); 1, the
 *     default, runs everything on the party's own thread. Shares and messages are the same bits
 *     with any number, so parties may differ in it
 */
public record BgwConfig(Field field, int threshold, int prssLimit, int dealtBitsUpTo, int threads) {

  public static final int DEFAULT_PRSS_LIMIT = 64;

  /**
   * The largest PRSS limit accepted: every party keeps up to this many keys and draws from each for
   * every random element, so a larger count is slower than dealing at any batch size.
   */
  public static final int MAX_PRSS_LIMIT = 1 << 16;

  /** XOR-dealt random bits for t ≤ 2: cheaper than a 125-squaring root per bit. */
  public static final int DEFAULT_DEALT_BITS_UP_TO = 2;

  /** The default way of making random bits. */
  public BgwConfig(Field field, int threshold, int prssLimit) {
    this(field, threshold, prssLimit, DEFAULT_DEALT_BITS_UP_TO);
  }

  /** One thread. */
  public BgwConfig(Field field, int threshold, int prssLimit, int dealtBitsUpTo) {
    this(field, threshold, prssLimit, dealtBitsUpTo, 1);
  }

  public BgwConfig {
    if (threshold < 0) {
      throw new IllegalArgumentException(
          "threshold (" + threshold + ") must be >= 1, or 0 for the default");
    }
    if (prssLimit < 0 || prssLimit > MAX_PRSS_LIMIT) {
      throw new IllegalArgumentException(
          "PRSS limit (" + prssLimit + ") must be in [0, " + MAX_PRSS_LIMIT + "]");
    }
    if (threads < 1 || threads > Workers.MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads (" + threads + ") must be in [1, " + Workers.MAX_THREADS + "]");
    }
  }

  /** The default threshold for the number of parties, and PRSS for small key-set counts. */
  public static BgwConfig of(Field field) {
    return new BgwConfig(field, 0, DEFAULT_PRSS_LIMIT);
  }

  public BgwConfig withThreshold(int t) {
    if (t < 1) {
      throw new IllegalArgumentException("threshold (" + t + ") must be >= 1");
    }
    return new BgwConfig(field, t, prssLimit, dealtBitsUpTo, threads);
  }

  public BgwConfig withPrssLimit(int limit) {
    return new BgwConfig(field, threshold, limit, dealtBitsUpTo, threads);
  }

  /** Random bits by the square-root trick for every t when {@code upTo} is 0. */
  public BgwConfig withDealtBitsUpTo(int upTo) {
    return new BgwConfig(field, threshold, prssLimit, upTo, threads);
  }

  /** Large local kernels split over {@code n} threads (see {@code threads} above). */
  public BgwConfig withThreads(int n) {
    return new BgwConfig(field, threshold, prssLimit, dealtBitsUpTo, n);
  }

  /** The threshold used with {@code parties} parties. */
  public int thresholdFor(int parties) {
    return threshold == 0 ? (parties - 1) / 2 : threshold;
  }
}
