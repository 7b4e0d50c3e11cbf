package dev.cohort.transport;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keeps the two transports siblings on one floor: {@code dev.cohort.netty} and {@code
 * dev.cohort.socket} may both use {@code dev.cohort.transport}, never each other, and the floor
 * uses neither. A rule shared by the transports (admission, frame limits, the hello) then has one
 * place to live. Above them all sits the harness ({@code dev.cohort.harness.loopback}, which binds
 * either transport for parties in one JVM): it may use both, and no transport may use it. The
 * client link ({@code dev.cohort.clientlink}) is a third sibling on the floor: it uses neither
 * transport and neither uses it. Main classes only: interoperability tests run a Netty and a socket
 * party together on purpose.
 */
class TransportLayeringTest {

  private static JavaClasses classes;

  @BeforeAll
  static void importNetwork() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(
                "dev.cohort.netty",
                "dev.cohort.socket",
                "dev.cohort.transport",
                "dev.cohort.harness",
                "dev.cohort.clientlink");
  }

  @Test
  void socket_doesNotSeeNetty() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.socket..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.cohort.netty..")
        .check(classes);
  }

  @Test
  void netty_doesNotSeeSocket() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.netty..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.cohort.socket..")
        .check(classes);
  }

  @Test
  void floor_seesNeitherTransport() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.transport..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.cohort.netty..", "dev.cohort.socket..")
        .check(classes);
  }

  @Test
  void transports_doNotSeeTheHarness() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.cohort.netty..", "dev.cohort.socket..", "dev.cohort.transport..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.cohort.harness..")
        .because("the harness runs parties over a transport; a transport never runs parties")
        .check(classes);
  }

  @Test
  void harness_isImported() {
    // The rule above would pass vacuously without the harness's classes; make sure they are here.
    for (String pkg : new String[] {"dev.cohort.harness", "dev.cohort.harness.loopback"}) {
      if (!classes.containPackage(pkg) || classes.getPackage(pkg).getClasses().isEmpty()) {
        throw new AssertionError("no classes imported from " + pkg);
      }
    }
  }

  @Test
  void socket_doesNotUseTheNettyLibrary() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.socket..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.netty..")
        .because("the socket transport is the dependency-free alternative to Netty")
        .check(classes);
  }

  @Test
  void clientLink_seesNeitherTransportNorTheHarness() {
    noClasses()
        .that()
        .resideInAPackage("dev.cohort.clientlink..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("dev.cohort.netty..", "dev.cohort.socket..", "dev.cohort.harness..")
        .because("clients are never part of the mesh: the link shares only the floor with it")
        .check(classes);
  }

  @Test
  void mesh_doesNotSeeTheClientLink() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.cohort.netty..", "dev.cohort.socket..", "dev.cohort.transport..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.cohort.clientlink..")
        .check(classes);
  }
}
