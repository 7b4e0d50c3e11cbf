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
   * sessions on its own thread ({@code EngineConfig.withGroups}): only when the suites of {@link
   * #groups} share nothing that must not be used twice. A suite whose randomness all comes from its
   * own generator and its own set-up (BGW) can, with the default {@link #groups}; one that draws
   * preprocessed material from a common store (SPDZ's triples and masks) can only if {@link
   * #groups} gives each group its own part of that store. False unless a factory says otherwise.
   */
  default boolean runsInGroups() {
    return false;
  }

  /**
   * The factories of one party's suites when its engine runs sessions in up to {@code groups}
   * groups (its own suite's and each group's), called once per such engine and only when {@link
   * #runsInGroups}: whatever they share is shared by that engine's suites alone. The default: this
   * factory for all, so the suites share nothing but what {@link #create} shares.
   */
  default SessionGroups groups(int groups) {
    return SessionGroups.sharingNothing(this);
  }
}
