package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.SuiteContractTest;

/** The suite contract on SPDZ with the seeded dealer, at 2, 3 and 5 parties. */
class SpdzSuiteTest extends SuiteContractTest {

  @Override
  protected SuiteFactory suite(Field field, int parties) {
    return SpdzSuite.insecureFactory(field, 42);
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
   * An input layer is one round ({@link SpdzRangeInput}: the owners send their masked bits, the
   * rest is local), as the default {@link #roundsPerInput()} says. Its broadcasts are unchecked
   * afterwards, so an opening right after inputs waits for their digests to be compared: one round
   * ({@link BroadcastCheck}).
   */
  @Override
  protected int roundsPerInputCheckBeforeOpen() {
    return 1;
  }

  /** The MAC check: open the seeds, commit to σ, open σ. */
  @Override
  protected int roundsPerFinalCheck() {
    return 3;
  }
}
