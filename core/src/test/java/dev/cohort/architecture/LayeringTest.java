package dev.cohort.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Keeps the arrows of DESIGN.md §1 honest: calls flow down, never back up. */
class LayeringTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importCore() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cohort");
  }

  @Test
  void fields_dependOnNothingButRandomness() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.field..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.cohort.api..",
            "dev.cohort.producer..",
            "dev.cohort.gate..",
            "dev.cohort.engine..",
            "dev.cohort.suite..",
            "dev.cohort.net..",
            "dev.cohort.harness..")
        .check(classes);
  }

  @Test
  void workerPool_dependsOnNothingOfCohort() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.parallel..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.cohort.api..",
            "dev.cohort.field..",
            "dev.cohort.random..",
            "dev.cohort.producer..",
            "dev.cohort.gate..",
            "dev.cohort.engine..",
            "dev.cohort.suite..",
            "dev.cohort.net..",
            "dev.cohort.harness..")
        .check(classes);
  }

  @Test
  void suitesAndNetwork_doNotSeeProducersOrEngine() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.cohort.suite..", "dev.cohort.net..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.cohort.producer..",
            "dev.cohort.gate..",
            "dev.cohort.engine..",
            "dev.cohort.harness..")
        .check(classes);
  }

  @Test
  void network_doesNotSeeSuites() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.net..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.cohort.suite..", "dev.cohort.field..")
        .check(classes);
  }

  @Test
  void gateGraph_doesNotSeeTheScopes() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.gate..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.cohort.producer..")
        .because(
            "scopes record gates in the graph, never the other way round: the graph knows a scope"
                + " only as a gate.Scope, gate.Buildable or gate.SessionBuilder")
        .check(classes);
  }

  @Test
  void producersAndGateGraph_doNotSeeEngineOrNetwork() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.cohort.producer..", "dev.cohort.gate..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.cohort.engine..", "dev.cohort.net..", "dev.cohort.harness..")
        .check(classes);
  }

  @Test
  void applicationApi_doesNotSeeTheMachinery() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.api..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.cohort.producer..",
            "dev.cohort.gate..",
            "dev.cohort.engine..",
            "dev.cohort.suite..",
            "dev.cohort.net..",
            "dev.cohort.field..",
            "dev.cohort.harness..")
        .check(classes);
  }
}
