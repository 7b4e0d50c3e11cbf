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
}
