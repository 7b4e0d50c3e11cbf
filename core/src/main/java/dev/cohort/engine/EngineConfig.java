package dev.cohort.engine;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How an engine runs. Every party of a computation must use the same {@code batchSize}: it decides
 * how gates are grouped into rounds, and the parties' messages must line up.
 *
 * @param batchSize the most secret elements of interactive gates in flight at once; a single gate
 *     larger than this still runs, alone
 * @param insecureSeed when non-null, the party's randomness comes from a PRG seeded with it, so
 *     runs repeat: for tests and benchmarks only, never for deployments; when null it is seeded
 *     from {@code SecureRandom}
 * @param agreed settings of the application that every party must give the same value (the number
 *     of sessions, a data set's digest, ...), by name: compared with the engine's own (suite,
 *     field, parties, batch size) when the engine starts, and a difference names the setting and
 *     both values on every party ({@link ConfigurationCheck})
 * @param groups how many groups of sessions {@link Engine#runSessions} may run side by side, each
 *     on its own thread with its own suite (for suites that allow it, {@link
 *     dev.cohort.suite.SuiteFactory#runsInGroups}); their rounds share the channel's rounds, one
 *     frame per peer. 1: one engine, one thread
 */
public record EngineConfig(
    int batchSize, Long insecureSeed, SortedMap<String, String> agreed, int groups) {

  public static final int DEFAULT_BATCH_SIZE = 1 << 20;

  public EngineConfig {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size (" + batchSize + ") must be >= 1");
    }
    if (groups < 1 || groups > GroupedChannel.MAX_GROUPS) {
      throw new IllegalArgumentException(
          "session groups (" + groups + ") must be between 1 and " + GroupedChannel.MAX_GROUPS);
    }
    agreed = Collections.unmodifiableSortedMap(new TreeMap<>(agreed));
  }

  public EngineConfig(int batchSize, Long insecureSeed, SortedMap<String, String> agreed) {
    this(batchSize, insecureSeed, agreed, 1);
  }

  public EngineConfig(int batchSize, Long insecureSeed) {
    this(batchSize, insecureSeed, new TreeMap<>());
  }

  /** Secure randomness and the default batch size. */
  public static EngineConfig defaults() {
    return new EngineConfig(DEFAULT_BATCH_SIZE, null);
  }

  public EngineConfig withBatchSize(int size) {
    return new EngineConfig(size, insecureSeed, agreed, groups);
  }

  /** Deterministic randomness for tests and benchmarks: INSECURE. */
  public EngineConfig withInsecureSeed(long seed) {
    return new EngineConfig(batchSize, seed, agreed, groups);
  }

  /**
   * Sessions run in up to {@code groups} groups side by side (see {@link Engine#runSessions});
   * every party must give the same number.
   */
  public EngineConfig withGroups(int groups) {
    return new EngineConfig(batchSize, insecureSeed, agreed, groups);
  }

  /**
   * Adds a setting every party must give the same value: {@code name} as the user knows it (a
   * command-line flag such as {@code --sessions}), so a difference reads "P2 has --sessions 1200,
   * P0 has 1000". Names and values must not contain line breaks or '='.
   */
  public EngineConfig withAgreed(String name, String value) {
    for (String s : new String[] {name, value}) {
      if (s.isEmpty() && s == name || s.indexOf('\n') >= 0 || s.indexOf('=') >= 0) {
        throw new IllegalArgumentException(
            "agreed setting '" + name + "' = '" + value + "': no line breaks or '=', a name");
      }
    }
    TreeMap<String, String> more = new TreeMap<>(agreed);
    more.put(name, value);
    return new EngineConfig(batchSize, insecureSeed, more, groups);
  }
}
