package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.LibraryDifferentialTest;
import org.junit.jupiter.api.Nested;

/**
 * The library against its exact oracle on SPDZ with two and three parties, preprocessing from the
 * in-process insecure dealer.
 */
class SpdzDifferentialTest {

  @Nested
  class TwoParties extends LibraryDifferentialTest {
    @Override
    protected SuiteFactory suite(Field field) {
      return SpdzSuite.insecureFactory(field, 2026);
    }

    @Override
    protected int parties() {
      return 2;
    }
  }

  @Nested
  class ThreeParties extends LibraryDifferentialTest {
    @Override
    protected SuiteFactory suite(Field field) {
      return SpdzSuite.insecureFactory(field, 2027);
    }

    @Override
    protected int parties() {
      return 3;
    }
  }
}
