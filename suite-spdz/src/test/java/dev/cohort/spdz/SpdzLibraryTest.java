package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.LibraryContractTest;

/** The standard library on SPDZ with three parties and the insecure seeded dealer. */
class SpdzLibraryTest extends LibraryContractTest {

  @Override
  protected SuiteFactory suite(Field field) {
    return SpdzSuite.insecureFactory(field, 2024);
  }

  @Override
  protected int parties() {
    return 3;
  }

  /** The MAC check before an opening of values that depend on unchecked openings. */
  @Override
  protected int roundsPerCheckBeforeOpen() {
    return 3;
  }
}
