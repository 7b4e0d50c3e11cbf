package dev.cohort.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering rules that cross Maven modules: the arrows of DESIGN.md §1 between {@code core}, the
 * suites, the transports and the library, checked with every module's main classes on the
 * classpath.
 *
 * <p>Core's own {@code LayeringTest} sees only core; Maven's module edges keep a suite from
 * depending on {@code network}, but not from reaching into core's engine, nor one transport from
 * leaning on its sibling. This module ({@code demos}) depends on every other one, so the rules live
 * here. Test classes are not imported: corrupt-party decorators and harnesses may cross layers.
 */
class ModuleLayeringTest {

  /** The engine's internals and what sits above them: the gate graph, its scopes, the harness. */
  private static final String[] ABOVE_THE_SUITES = {
    "dev.cohort.engine..",
    "dev.cohort.gate..",
    "dev.cohort.producer..",
    "dev.cohort.harness..",
    "dev.cohort.lib.."
  };

  private static JavaClasses classes;

  @BeforeAll
  static void importEveryModule() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cohort");
  }

  @Test
  void everyModule_isImported() {
    // A rule over an empty package passes vacuously; make sure each module's classes are here.
    for (String pkg :
        new String[] {
          "dev.cohort.api",
          "dev.cohort.lib",
          "dev.cohort.bgw",
          "dev.cohort.spdz",
          "dev.cohort.netty",
          "dev.cohort.socket",
          "dev.cohort.harness",
          "dev.cohort.harness.loopback",
          "dev.cohort.cli"
        }) {
      if (!classes.containPackage(pkg) || classes.getPackage(pkg).getClasses().isEmpty()) {
        throw new AssertionError("no classes imported from " + pkg);
      }
    }
  }

  @Test
  void bgw_seesNeitherEngineInternalsNorSpdz() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.bgw..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(ABOVE_THE_SUITES)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.cohort.spdz..", "dev.cohort.netty..", "dev.cohort.socket..")
        .because("a suite gets gates and a round index through dev.cohort.suite (DESIGN.md §1)")
        .check(classes);
  }

  @Test
  void spdz_seesNeitherEngineInternalsNorBgw() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.spdz..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(ABOVE_THE_SUITES)
        .orShould()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.cohort.bgw..", "dev.cohort.netty..", "dev.cohort.socket..")
        .because("a suite gets gates and a round index through dev.cohort.suite (DESIGN.md §1)")
        .check(classes);
  }

  // The arrows between the two transports and their floor (socket ↛ netty, netty ↛ socket, the
  // floor ↛ either, socket ↛ io.netty) lie inside the network module, whose TransportLayeringTest
  // checks them with that whole module on its classpath.

  @Test
  void lib_seesOnlyTheApplicationApi() {
    classes()
        .that()
        .resideInAPackage("dev.cohort.lib..")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("dev.cohort.lib..", "dev.cohort.api..", "java..")
        .because("the standard library is application code: it runs unchanged on every suite")
        .check(classes);
  }
}
