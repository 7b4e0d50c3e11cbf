package dev.cohort.engine;

/**
 * How an engine runs. Every party of a computation must use the same {@code batchSize}: it decides
 * how gates are grouped into rounds, and the parties' messages must line up.
 *
 * @param batchSize the most secret elements of interactive gates in flight at once; a single gate
 *     larger than this still runs, alone
 * @param insecureSeed when non-null, the party's randomness comes from a PRG seeded with it, so
 *     runs repeat: for tests and benchmarks only, never for deployments; when null it is seeded
 *     from {@code SecureRandom}
 */
public record EngineConfig(int batchSize, Long insecureSeed) {

  public static final int DEFAULT_BATCH_SIZE = 1 << 20;

  public EngineConfig {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size (" + batchSize + ") must be >= 1");
    }
  }

  /** Secure randomness and the default batch size. */
  public static EngineConfig defaults() {
    return new EngineConfig(DEFAULT_BATCH_SIZE, null);
  }

  public EngineConfig withBatchSize(int size) {
    return new EngineConfig(size, insecureSeed);
  }

  /** Deterministic randomness for tests and benchmarks: INSECURE. */
  public EngineConfig withInsecureSeed(long seed) {
    return new EngineConfig(batchSize, seed);
  }
}
