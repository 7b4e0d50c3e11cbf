package dev.cohort.spdz;

import dev.cohort.suite.Shares;

/** A preprocessing that passes every call on: tests override what a corrupt party reports. */
class ForwardingPreprocessing implements SpdzPreprocessing {
  private final SpdzPreprocessing d;

  ForwardingPreprocessing(SpdzPreprocessing d) {
    this.d = d;
  }

  @Override
  public long[] macKeyShare() {
    return d.macKeyShare();
  }

  @Override
  public Triples triples(int count) {
    return d.triples(count);
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    return d.inputMasks(owner, count);
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    return d.inputBits(owner, count);
  }

  @Override
  public Shares randomElements(int count) {
    return d.randomElements(count);
  }

  @Override
  public Shares randomBits(int count) {
    return d.randomBits(count);
  }

  @Override
  public Positions positions() {
    return d.positions();
  }

  @Override
  public void skipTo(long[] used) {
    d.skipTo(used);
  }

  @Override
  public void beforeMacReveal() {
    d.beforeMacReveal();
  }

  @Override
  public void macCheckPassed() {
    d.macCheckPassed();
  }
}
