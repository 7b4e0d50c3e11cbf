package dev.cohort.bench;

import dev.cohort.field.Field;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.suite.Shares;

/**
 * A {@link SpdzPreprocessing} that counts what the online phase draws from the one it wraps, per
 * kind, so a benchmark can say how much material an operation consumes. Everything else passes
 * through unchanged (the MAC-check marks included, {@link WrappedPreprocessing}). Counts are read
 * while the party is idle, after a run.
 */
final class CountedPreprocessing extends WrappedPreprocessing {

  /** The kinds counted, in the order of {@link #drawn()}. */
  static final String[] KINDS = {
    "triples", "random bits", "random elements", "masks", "input bits"
  };

  private final long[] drawn = new long[KINDS.length];

  CountedPreprocessing(SpdzPreprocessing inner) {
    super(inner);
  }

  /** {@code source} with each party's preprocessing counted; {@code into[p]} receives party p's. */
  static PreprocessingSource counting(PreprocessingSource source, SpdzPreprocessing[] into) {
    return (Field field, int party, int parties) -> {
      CountedPreprocessing counted = new CountedPreprocessing(source.open(field, party, parties));
      synchronized (into) {
        into[party] = counted;
      }
      return counted;
    };
  }

  /** The preprocessing this one counts for. */
  SpdzPreprocessing inner() {
    return inner;
  }

  /** Items drawn so far, per kind of {@link #KINDS}. */
  synchronized long[] drawn() {
    return drawn.clone();
  }

  private synchronized void count(int kind, int n) {
    drawn[kind] += n;
  }

  @Override
  public Triples triples(int count) {
    count(0, count);
    return inner.triples(count);
  }

  @Override
  public Shares randomBits(int count) {
    count(1, count);
    return inner.randomBits(count);
  }

  @Override
  public Shares randomElements(int count) {
    count(2, count);
    return inner.randomElements(count);
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    count(3, count);
    return inner.inputMasks(owner, count);
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    count(4, count);
    return inner.inputBits(owner, count);
  }
}
