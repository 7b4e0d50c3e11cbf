package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.suite.Shares;
import java.util.ArrayList;
import java.util.List;

/**
 * A party's real preprocessing that records every draw from it: the kind (in the order of {@link
 * SpdzPreprocessing.Positions#used()}), where in the kind's stream it started and how many items it
 * took, and the first share word of each item, so a test can tell which stream position an item
 * handed out further on came from. Positions start where the source stands and follow its skips.
 */
final class RecordingPreprocessing extends ForwardingPreprocessing {

  /** One draw: items {@code from} to {@code from + count} of {@code kind}. */
  record Draw(int kind, long from, int count) {}

  private final SpdzPreprocessing source;
  private final int parties;
  private final int words;
  private final long[] used;
  private final List<Draw> draws = new ArrayList<>();
  private final List<java.util.Map<Long, Long>> itemAt; // per kind: first share word -> position

  RecordingPreprocessing(SpdzPreprocessing source, Field field, int parties) {
    super(source);
    this.source = source;
    this.parties = parties;
    this.words = field.words();
    Positions p = source.positions();
    this.used = p == null ? new long[PositionAgreement.kinds(parties)] : p.used().clone();
    this.itemAt = new ArrayList<>();
    for (int k = 0; k < used.length; k++) {
      itemAt.add(new java.util.HashMap<>());
    }
  }

  /** Sources that record into {@code into}, one recorder per party (index: party). */
  static PreprocessingSource wrap(PreprocessingSource source, RecordingPreprocessing[] into) {
    return (field, party, parties) -> {
      RecordingPreprocessing r =
          new RecordingPreprocessing(source.open(field, party, parties), field, parties);
      into[party] = r;
      return r;
    };
  }

  synchronized List<Draw> draws() {
    return new ArrayList<>(draws);
  }

  /** The stream position of the item of {@code kind} whose share begins with {@code word}. */
  synchronized long positionOf(int kind, long word) {
    Long at = itemAt.get(kind).get(word);
    if (at == null) {
      throw new AssertionError("no item of kind " + kind + " starts with " + word);
    }
    return at;
  }

  private synchronized void record(int kind, int count, long[] share) {
    draws.add(new Draw(kind, used[kind], count));
    for (int i = 0; i < count; i++) {
      itemAt.get(kind).put(share[i * words], used[kind] + i);
    }
    used[kind] += count;
  }

  @Override
  public Triples triples(int count) {
    Triples t = source.triples(count);
    record(0, count, t.a().share);
    return t;
  }

  @Override
  public Shares randomElements(int count) {
    Shares s = source.randomElements(count);
    record(1, count, s.share);
    return s;
  }

  @Override
  public Shares randomBits(int count) {
    Shares s = source.randomBits(count);
    record(2, count, s.share);
    return s;
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    InputMasks m = source.inputMasks(owner, count);
    record(3 + owner, count, m.shares().share);
    return m;
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    InputMasks m = source.inputBits(owner, count);
    record(3 + parties + owner, count, m.shares().share);
    return m;
  }

  @Override
  public synchronized void skipTo(long[] to) {
    source.skipTo(to);
    for (int k = 0; k < used.length; k++) {
      used[k] = Math.max(used[k], to[k]);
    }
  }

  @Override
  public void macCheckFailed() {
    source.macCheckFailed();
  }
}
