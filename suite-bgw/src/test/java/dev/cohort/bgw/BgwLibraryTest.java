package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.LibraryContractTest;

/** The standard library on BGW with three parties. */
class BgwLibraryTest extends LibraryContractTest {

  @Override
  protected SuiteFactory suite(Field field) {
    return BgwSuite.factory(field);
  }

  @Override
  protected int parties() {
    return 3;
  }
}
