package dev.cohort.suite;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;

/** Creates a party's {@link Suite}; one factory describes one configured suite for all parties. */
public interface SuiteFactory {

  /** A short name for reports, e.g. {@code bgw(n=3,t=1,m61)}. */
  String name();

  Field field();

  /**
   * Checks that this suite can run with {@code parties} parties, throwing {@link
   * IllegalArgumentException} with a message that says what is needed.
   */
  void validate(int parties);

  /** The suite of party {@code party}, drawing its private randomness from {@code prg}. */
  Suite create(int party, int parties, Prg prg);

  /**
   * Whether one party may run several suites of this factory side by side, one per group of
   * sessions on its own thread ({@code EngineConfig.withGroups}): only when suites made by {@link
   * #create} share nothing that must not be used twice. A suite whose randomness all comes from its
   * own generator and its own set-up (BGW) can; one that draws preprocessed material from a common
   * store (SPDZ's triples and masks) cannot, since two suites would take the same material. False
   * unless a factory says otherwise.
   */
  default boolean runsInGroups() {
    return false;
  }
}
