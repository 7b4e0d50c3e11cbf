package dev.cohort.testing;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;

/**
 * A suite factory that forwards every call to another: a test overrides only what it changes (the
 * suites it creates, whether they may run in groups), as {@link ForwardingSuite} does for suites.
 * {@link #groups} is not forwarded: groups get this factory's own suites, which is right for a
 * delegate whose suites share nothing (plaintext, BGW) and wrong for one that slices shared
 * material (SPDZ), whose tests decorate its {@code SessionGroups} instead.
 */
public abstract class ForwardingSuiteFactory implements SuiteFactory {

  private final SuiteFactory delegate;

  protected ForwardingSuiteFactory(SuiteFactory delegate) {
    this.delegate = delegate;
  }

  @Override
  public String name() {
    return delegate.name();
  }

  @Override
  public Field field() {
    return delegate.field();
  }

  @Override
  public void validate(int parties) {
    delegate.validate(parties);
  }

  @Override
  public Suite create(int party, int parties, Prg prg) {
    return delegate.create(party, parties, prg);
  }

  @Override
  public boolean runsInGroups() {
    return delegate.runsInGroups();
  }
}
