package dev.cohort.bench;

import dev.cohort.field.Field;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.suite.Shares;
import java.util.Arrays;

/**
 * A {@link SpdzPreprocessing} whose material is drawn from the one it wraps ahead of time, between
 * a benchmark's invocations ({@link #refill}), so the online phase finds it made, as it would find
 * material made by {@code cohort preprocess} or an offline phase that keeps ahead of it, and the
 * score is the online phase alone. <b>For benchmarks only</b>: it wraps the INSECURE in-process
 * dealer.
 *
 * <p>Each refill draws, per kind (and per owner for input masks and bits), what the last invocation
 * drew, in one request, after dropping what the last invocation left. A request the buffer cannot
 * serve is drawn from the wrapped source then and there. Every party runs the same computation, so
 * every party buffers, drops and serves alike, and the k-th item of a kind stays the same sharing
 * at every party. The MAC key, the MAC-check marks and positions pass through.
 */
final class PredealtPreprocessing extends WrappedPreprocessing {

  private static final int TRIPLES = 0;
  private static final int BITS = 1;
  private static final int ELEMENTS = 2;

  private final int words;
  private final int parties;
  private final Shares[][] buffers; // [kind or 3 + owner or 3 + parties + owner][a, b, c]
  private final int[] used; // items served from each buffer
  private final long[] demand; // items asked per buffer since the last refill
  private final long[][] values; // input masks' and bits' values at their owner, per buffer

  PredealtPreprocessing(SpdzPreprocessing inner, Field field, int parties) {
    super(inner);
    this.words = field.words();
    this.parties = parties;
    int kinds = 3 + 2 * parties;
    this.buffers = new Shares[kinds][];
    this.used = new int[kinds];
    this.demand = new long[kinds];
    this.values = new long[kinds][];
  }

  /** {@code source} with each party's material predealt; {@code into[p]} receives party p's. */
  static PreprocessingSource predealing(PreprocessingSource source, PredealtPreprocessing[] into) {
    return (Field field, int party, int parties) -> {
      PredealtPreprocessing p =
          new PredealtPreprocessing(source.open(field, party, parties), field, parties);
      synchronized (into) {
        into[party] = p;
      }
      return p;
    };
  }

  /**
   * Drops what is left and draws, per kind, what was asked since the last refill. Called while the
   * party is idle, between runs.
   */
  synchronized void refill() {
    for (int k = 0; k < buffers.length; k++) {
      int n = Math.toIntExact(demand[k]);
      demand[k] = 0;
      used[k] = 0;
      buffers[k] = null;
      values[k] = null;
      if (n > 0) {
        draw(k, n);
      }
    }
  }

  private void draw(int k, int n) {
    if (k == TRIPLES) {
      Triples t = inner.triples(n);
      buffers[k] = new Shares[] {t.a(), t.b(), t.c()};
    } else if (k == BITS) {
      buffers[k] = new Shares[] {inner.randomBits(n)};
    } else if (k == ELEMENTS) {
      buffers[k] = new Shares[] {inner.randomElements(n)};
    } else {
      int owner = (k - 3) % parties;
      InputMasks m = k < 3 + parties ? inner.inputMasks(owner, n) : inner.inputBits(owner, n);
      buffers[k] = new Shares[] {m.shares()};
      values[k] = m.values();
    }
  }

  /**
   * Column {@code column} of the next {@code count} items of buffer {@code k}, which {@link
   * #available} found there.
   */
  private Shares take(int k, int column, int count) {
    Shares all = buffers[k][column];
    return count == all.length ? all : all.slice(used[k], count, words);
  }

  private boolean available(int k, int count) {
    demand[k] += count;
    Shares[] b = buffers[k];
    return b != null && used[k] + count <= b[0].length;
  }

  @Override
  public synchronized Triples triples(int count) {
    if (!available(TRIPLES, count)) {
      return inner.triples(count);
    }
    Triples t = new Triples(take(0, 0, count), take(0, 1, count), take(0, 2, count));
    used[TRIPLES] += count;
    return t;
  }

  @Override
  public synchronized Shares randomBits(int count) {
    return single(BITS, count);
  }

  @Override
  public synchronized Shares randomElements(int count) {
    return single(ELEMENTS, count);
  }

  private Shares single(int k, int count) {
    if (!available(k, count)) {
      return k == BITS ? inner.randomBits(count) : inner.randomElements(count);
    }
    Shares s = take(k, 0, count);
    used[k] += count;
    return s;
  }

  @Override
  public synchronized InputMasks inputMasks(int owner, int count) {
    return masks(3 + owner, owner, count);
  }

  @Override
  public synchronized InputMasks inputBits(int owner, int count) {
    return masks(3 + parties + owner, owner, count);
  }

  private InputMasks masks(int k, int owner, int count) {
    if (!available(k, count)) {
      return k < 3 + parties ? inner.inputMasks(owner, count) : inner.inputBits(owner, count);
    }
    Shares s = take(k, 0, count);
    long[] v = values[k];
    if (v != null && count != buffers[k][0].length) {
      v = Arrays.copyOfRange(v, used[k] * words, (used[k] + count) * words);
    }
    used[k] += count;
    return new InputMasks(s, v);
  }

  @Override
  public long waitNanos() {
    return inner.waitNanos();
  }
}
