package dev.cohort.spdz;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * STYLE.md §3, "protocol classes get what they need passed in; they do not reach back into the
 * suite that made them", for the SPDZ suite's main classes: only {@link SpdzSuite} itself (and its
 * factory) names it; every gate, check and collaborator gets its narrow collaborators in its
 * constructor.
 */
class SpdzStructureTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importSpdz() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cohort.spdz");
  }

  @Test
  void protocolClasses_doNotReachBackIntoTheSuite() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.spdz..")
        .and()
        .haveNameNotMatching("dev\\.cohort\\.spdz\\.SpdzSuite(\\$.*)?")
        .should()
        .dependOnClassesThat()
        .belongToAnyOf(SpdzSuite.class)
        .check(classes);
  }

  @Test
  void spdzPackage_isImported() {
    // a rule over no classes passes vacuously
    if (!classes.contain(BeaverMultiply.class) || !classes.contain(MacCheck.class)) {
      throw new AssertionError("the SPDZ main classes were not imported");
    }
  }
}
