package dev.cohort.bench;

import dev.cohort.spdz.SpdzPreprocessing;

/**
 * A benchmark's {@link SpdzPreprocessing} around another one: the MAC key, the MAC-check marks and
 * the positions pass through to the wrapped source, whatever the wrapper does with the material.
 */
abstract class WrappedPreprocessing implements SpdzPreprocessing {

  /** The source this one wraps. */
  final SpdzPreprocessing inner;

  WrappedPreprocessing(SpdzPreprocessing inner) {
    this.inner = inner;
  }

  @Override
  public final long[] macKeyShare() {
    return inner.macKeyShare();
  }

  @Override
  public final void beforeMacReveal() {
    inner.beforeMacReveal();
  }

  @Override
  public final void macCheckPassed() {
    inner.macCheckPassed();
  }

  @Override
  public final void macCheckFailed() {
    inner.macCheckFailed();
  }

  @Override
  public final Positions positions() {
    return inner.positions();
  }

  @Override
  public final void skipTo(long[] used) {
    inner.skipTo(used);
  }
}
