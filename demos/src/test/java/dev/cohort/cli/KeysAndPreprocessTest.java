package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
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
  void keys_partiesAndClients_clientsAreSignedByTheSameCa() throws Exception {
    Path keys = dir.resolve("keys");

    Cli.Run run = cohort("keys", "--parties", "3", "--clients", "4", "--out", keys.toString());

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("wrote keys for 4 input clients (0..3)"), run.out());
    X509Certificate ca = TlsIdentity.load(keys, 0).ca();
    for (int c = 0; c < 4; c++) {
      TlsIdentity client = TlsIdentity.loadClient(keys, c);
      assertEquals(c, client.client());
      client.certificate().verify(ca.getPublicKey());
    }
  }

  @Test
  void keys_clientsAlone_addThemToAnExistingDirectoryAndKeepTheCa() throws Exception {
    Path keys = dir.resolve("keys");
    assertEquals(0, cohort("keys", "--parties", "2", "--out", keys.toString()).exitCode());
    byte[] ca = Files.readAllBytes(keys.resolve("ca.pem"));
    byte[] party = Files.readAllBytes(keys.resolve("party-1-key.pem"));

    Cli.Run run = cohort("keys", "--clients", "2", "--out", keys.toString());

    assertEquals(0, run.exitCode(), run.all());
    assertArrayEquals(ca, Files.readAllBytes(keys.resolve("ca.pem")));
    assertArrayEquals(party, Files.readAllBytes(keys.resolve("party-1-key.pem")));
    TlsIdentity client = TlsIdentity.loadClient(keys, 1);
    client.certificate().verify(TlsIdentity.load(keys, 0).ca().getPublicKey());
  }

  @Test
  void keys_clientsAloneWithoutACaKey_failsWithOneLine() {
    Cli.Run run = cohort("keys", "--clients", "2", "--out", dir.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertEquals(
        "cohort: "
            + dir.resolve("ca.pem")
            + " is missing: client certificates are signed by the deployment's CA, whose"
            + " certificate and key must be in "
            + dir,
        run.err().strip());
  }

  @Test
  void keys_neitherPartiesNorClients_failsWithOneLine() {
    Cli.Run run = cohort("keys", "--out", dir.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertEquals("cohort: give --parties N, --clients M, or both", run.err().strip());
  }

  @Test
  void keys_help_explainsClients() {
    Cli.Run run = cohort("keys", "--help");

    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("--clients=M"), run.out());
    assertTrue(run.out().contains("--clients without --parties adds client keys"), run.out());
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
    assertTrue(
        run.out().contains("WARNING: without --party this is a trusted dealer, INSECURE"),
        run.out());
  }

  @Test
  void preprocess_smallField_refusedForMacs() {
    Cli.Run run =
        cohort("preprocess", "--parties", "2", "--field", "1000003", "--out", dir.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertTrue(run.err().contains("SPDZ needs a field of at least 61 bits"), run.err());
  }

  @Test
  void preprocess_forSessions_dealsTheDemosNeedsAndTheDemoRunsOnThem() {
    Path out = dir.resolve("planned");

    Cli.Run dealt =
        cohort(
            "preprocess",
            "--devices",
            "2",
            "--sessions",
            "5",
            "--parallelism",
            "2",
            "--margin",
            "0",
            "--field",
            "m61",
            "--out",
            out.toString());

    assertEquals(0, dealt.exitCode(), dealt.all());
    // The sizing rule, computed here: 5 openings to the server; the server inputs 2 session
    // numbers of 32 bits, then a 59-bit running sum (m61) per batch: 64 + 3 * 59 = 241 bits;
    // each device 5 distances of 32 bits = 160.
    assertTrue(dealt.out().contains("5 input masks and 241 input bits per party"), dealt.out());
    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--field",
            "m61",
            "--devices",
            "2",
            "--sessions",
            "5",
            "--parallelism",
            "2",
            "--preprocessing",
            out.toString(),
            "--insecure-plaintext",
            "--json");
    assertEquals(0, run.exitCode(), run.all());
    assertTrue(
        run.out().contains("\"running_sum\":" + Cli.plaintextSum(Traces.generate(1, 2, 5), 5)),
        run.out());
  }

  @Test
  void preprocess_forSessions_marginAddsToEveryKind() {
    Cli.Run dealt =
        cohort(
            "preprocess",
            "--devices",
            "1",
            "--sessions",
            "100",
            "--margin",
            "10",
            "--out",
            dir.resolve("m").toString());

    assertEquals(0, dealt.exitCode(), dealt.all());
    // m127: 100 masks; the server 64 + 100 * 62 = 6264 bits, the device 3200; plus 10 % + 1.
    assertTrue(dealt.out().contains("111 input masks and 6891 input bits per party"), dealt.out());
  }

  @Test
  void preprocess_largerThanMaxBytes_refusedWithItsSizeExit2AndNothingWritten() {
    Path out = dir.resolve("limited");

    Cli.Run run =
        cohort(
            "preprocess",
            "--parties",
            "3",
            "--triples",
            "1000000",
            "--max-bytes",
            "10M",
            "--out",
            out.toString());

    assertEquals(2, run.exitCode(), run.all());
    // 3 files of 1,000,000 triples of 6 columns of 16 bytes each, plus headers and records
    assertTrue(run.err().startsWith("cohort: this dealing needs 288.0 MB ("), run.err());
    assertTrue(run.err().contains("more than the limit of 10.0 MB (10000000 bytes)"), run.err());
    assertEquals(1, run.err().strip().lines().count(), run.err());
    assertTrue(Files.notExists(out), "nothing written");
  }

  @Test
  void preprocess_sessionsAndInputs_refusedAsContradictory() {
    Cli.Run run =
        cohort(
            "preprocess",
            "--devices",
            "2",
            "--sessions",
            "5",
            "--inputs",
            "3",
            "--out",
            dir.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertTrue(run.err().contains("either --sessions"), run.err());
  }
}
