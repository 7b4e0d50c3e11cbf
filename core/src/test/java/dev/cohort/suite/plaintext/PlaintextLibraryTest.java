package dev.cohort.suite.plaintext;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.LibraryContractTest;

/** The standard library on the plaintext oracle: checks the algorithms apart from any suite. */
class PlaintextLibraryTest extends LibraryContractTest {

  @Override
  protected SuiteFactory suite(Field field) {
    return PlaintextSuite.factory(field, 99);
  }

  @Override
  protected int parties() {
    return 3;
  }
}
