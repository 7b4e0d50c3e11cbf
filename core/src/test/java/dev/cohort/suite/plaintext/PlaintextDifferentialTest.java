package dev.cohort.suite.plaintext;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.LibraryDifferentialTest;

/** The library against its exact oracle on the plaintext suite, three parties. */
class PlaintextDifferentialTest extends LibraryDifferentialTest {

  @Override
  protected SuiteFactory suite(Field field) {
    return PlaintextSuite.factory(field, 99);
  }

  @Override
  protected int parties() {
    return 3;
  }
}
