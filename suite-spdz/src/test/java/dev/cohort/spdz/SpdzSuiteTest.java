package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.SuiteContractTest;

/** The suite contract on SPDZ with the seeded dealer, at 2, 3 and 5 parties. */
class SpdzSuiteTest extends SuiteContractTest {

  @Override
  protected SuiteFactory suite(Field field, int parties) {
    return SpdzSuite.factory(field, 42);
  }

  @Override
  protected int[] partyCounts() {
    return new int[] {2, 3, 5};
  }

  /** The MAC check of everything opened (but Beaver's d and e) or input before an opening. */
  @Override
  protected int roundsPerCheckBeforeOpen() {
    return 3;
  }

  /**
   * The range proof of {@link SpdzRangeInput}: broadcast, squares, MAC check (3), open w, MAC check
   * (3). The last check covers everything the proof opened and the input broadcasts, so a run of
   * inputs alone ends there, and an opening right after inputs waits for no check (the default
   * {@link #roundsPerInputCheckBeforeOpen()} of 0).
   */
  @Override
  protected int roundsPerInput() {
    return 9;
  }

  /** The MAC check: open the seeds, commit to σ, open σ. */
  @Override
  protected int roundsPerFinalCheck() {
    return 3;
  }
}
