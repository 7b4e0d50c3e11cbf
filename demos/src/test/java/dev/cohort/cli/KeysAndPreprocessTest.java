package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cohort keys} and {@code cohort preprocess}, in-process. */
class KeysAndPreprocessTest {

  @TempDir Path dir;

  @Test
  void keys_threeParties_writesCaAndLoadableIdentities() {
    Path keys = dir.resolve("keys");

    Cli.Run run = cohort("keys", "--parties", "3", "--out", keys.toString());

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("wrote a CA and keys for 3 parties (P0..P2)"), run.out());
    assertTrue(Files.exists(keys.resolve("ca.pem")));
    for (int p = 0; p < 3; p++) {
      assertEquals(p, TlsIdentity.load(keys, p).party());
    }
  }

  @Test
  void keys_zeroParties_failsWithOneLine() {
    Cli.Run run = cohort("keys", "--parties", "0", "--out", dir.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertEquals("cohort: parties (0) must be between 1 and 1000", run.err().strip());
  }

  @Test
  void keys_missingOut_failsWithOneLine() {
    Cli.Run run = cohort("keys", "--parties", "3");

    assertEquals(2, run.exitCode(), run.all());
    assertTrue(run.err().startsWith("cohort: Missing required option: '--out=DIR'"), run.err());
  }

  @Test
  void preprocess_twoParties_writesOneFilePerParty() {
    Path out = dir.resolve("pre");

    Cli.Run run =
        cohort(
            "preprocess",
            "--parties",
            "2",
            "--field",
            "m61",
            "--triples",
            "100",
            "--inputs",
            "10",
            "--out",
            out.toString());

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(Files.exists(out.resolve("party-0.spdz")));
    assertTrue(Files.exists(out.resolve("party-1.spdz")));
    assertTrue(run.out().contains("trusted dealer"), run.out());
  }

  @Test
  void preprocess_posixFileSystem_filesAndUseRecordsOwnerOnly() throws IOException {
    assumeTrue(
        dir.getFileSystem().supportedFileAttributeViews().contains("posix"),
        "POSIX permissions only");
    Path out = dir.resolve("pre");

    Cli.Run run = cohort("preprocess", "--parties", "3", "--inputs", "5", "--out", out.toString());

    assertEquals(0, run.exitCode(), run.all());
    for (int p = 0; p < 3; p++) {
      for (String name : List.of("party-" + p + ".spdz", "party-" + p + ".spdz.used")) {
        assertEquals(
            "rw-------",
            PosixFilePermissions.toString(Files.getPosixFilePermissions(out.resolve(name))),
            name);
      }
    }
    assertEquals(
        "rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)), "dir");
  }

  @Test
  void preprocess_help_warnsThatTheDealerSeesEverything() {
    Cli.Run run = cohort("preprocess", "--help");

    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("WARNING: this is a trusted dealer"), run.out());
  }

  @Test
  void preprocess_smallField_refusedForMacs() {
    Cli.Run run =
        cohort("preprocess", "--parties", "2", "--field", "1000003", "--out", dir.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertTrue(run.err().contains("SPDZ needs a field of at least 61 bits"), run.err());
  }
}
