package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.LibraryDifferentialTest;
import org.junit.jupiter.api.Nested;

/** The library against its exact oracle on BGW with three parties (t = 1) and five (t = 2). */
class BgwDifferentialTest {

  @Nested
  class ThreeParties extends LibraryDifferentialTest {
    @Override
    protected SuiteFactory suite(Field field) {
      return BgwSuite.factory(field);
    }

    @Override
    protected int parties() {
      return 3;
    }
  }

  @Nested
  class FiveParties extends LibraryDifferentialTest {
    @Override
    protected SuiteFactory suite(Field field) {
      return BgwSuite.factory(field);
    }

    @Override
    protected int parties() {
      return 5;
    }
  }
}
