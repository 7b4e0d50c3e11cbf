package dev.cohort.random;

/**
 * A cryptographic pseudo-random generator: the one source of protocol randomness.
 *
 * <p>Production code seeds it from {@link java.security.SecureRandom} ({@link #secure()}); tests
 * pass a fixed seed ({@link #seeded(long)}) so that runs repeat. Two generators built from the same
 * key and stream produce the same sequence: that is how parties that share a key draw the same
 * pseudo-random values without talking.
 */
public interface Prg {

  /** The next 64 uniformly random bits. */
  long nextLong();

  /** Fills {@code out[off .. off + n)} with uniformly random words. */
  void fill(long[] out, int off, int n);

  /** Fills {@code out} with uniformly random bytes. */
  void nextBytes(byte[] out);

  /** A generator seeded from {@link java.security.SecureRandom}. */
  static Prg secure() {
    return AesCtrPrg.secure();
  }

  /** A deterministic generator for tests and benchmarks; never for deployments. */
  static Prg seeded(long seed) {
    return AesCtrPrg.seeded(seed);
  }

  /** A generator keyed by a 16-byte key; {@code stream} selects one of 2^64 independent streams. */
  static Prg fromKey(byte[] key, long stream) {
    return new AesCtrPrg(key, stream);
  }
}
