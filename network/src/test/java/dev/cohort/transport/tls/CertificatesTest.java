package dev.cohort.transport.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificatesTest {

  @TempDir Path directory;

  @Test
  void generate_threeParties_certificatesBindIdsAndChainToTheCa() throws Exception {
    Certificates.generate(directory, 3);
    for (int p = 0; p < 3; p++) {
      TlsIdentity identity = TlsIdentity.load(directory, p);
      X509Certificate cert = identity.certificate();
      assertEquals("cohort-party-" + p, Certificates.commonNameOf(cert));
      assertEquals(p, identity.party());
      cert.verify(identity.ca().getPublicKey()); // throws unless the CA signed it
      cert.checkValidity();
      Duration validity =
          Duration.between(cert.getNotBefore().toInstant(), cert.getNotAfter().toInstant());
      assertTrue(validity.toDays() >= 729 && validity.toDays() <= 731, validity.toString());
      assertTrue(cert.getNotAfter().toInstant().isAfter(Instant.now().plus(Duration.ofDays(700))));
      assertEquals(-1, cert.getBasicConstraints(), "a party certificate is no CA");
    }
    assertEquals(0, TlsIdentity.load(directory, 0).ca().getBasicConstraints());
    assertEquals(-1, Certificates.partyOf(TlsIdentity.load(directory, 0).ca()));
  }

  @Test
  void readCertificate_keyFileInstead_failsNamingTheFile() {
    Certificates.generate(directory, 1);
    Path key = directory.resolve("party-0-key.pem");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Certificates.readCertificate(key));
    assertEquals(key + " does not hold a PEM certificate", e.getMessage());
  }

  @Test
  void readPrivateKey_emptyFile_failsNamingTheFile() throws Exception {
    Path empty = Files.createFile(directory.resolve("empty.pem"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Certificates.readPrivateKey(empty));
    assertEquals(empty + " holds no PEM object", e.getMessage());
  }

  private static void assumePosix() {
    assumeTrue(
        FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
        "file permissions are POSIX only");
  }

  @Test
  void generate_keyFiles_areOwnerOnlyAndNoTemporaryFileIsLeft() throws Exception {
    assumePosix();
    Certificates.generate(directory, 2);
    for (String key : List.of("ca-key.pem", "party-0-key.pem", "party-1-key.pem")) {
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(key))),
          key);
    }
    try (var files = Files.list(directory)) {
      assertEquals(
          List.of(
              "ca-key.pem",
              "ca.pem",
              "party-0-key.pem",
              "party-0.pem",
              "party-1-key.pem",
              "party-1.pem"),
          files.map(f -> f.getFileName().toString()).sorted().toList());
    }
    TlsIdentity.load(directory, 1); // the moved key is the one that matches the certificate
  }

  /**
   * The attack on a key written first and restricted afterwards: whoever could open the file while
   * it was readable (here: an old key file left world-readable) keeps reading it after the chmod.
   * The new key must never reach a file that was open to others.
   */
  @Test
  void generate_overAWorldReadableKeyFile_aReaderHoldingItOpenNeverSeesTheNewKey()
      throws Exception {
    assumePosix();
    byte[] old = "an old key\n".getBytes(StandardCharsets.US_ASCII);
    for (String key : List.of("ca-key.pem", "party-0-key.pem")) {
      Path file = directory.resolve(key);
      Files.write(file, old);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    }
    try (FileChannel ca =
            FileChannel.open(directory.resolve("ca-key.pem"), StandardOpenOption.READ);
        FileChannel party =
            FileChannel.open(directory.resolve("party-0-key.pem"), StandardOpenOption.READ)) {
      Certificates.generate(directory, 1);
      for (FileChannel held : List.of(ca, party)) {
        ByteBuffer seen = ByteBuffer.allocate(4096);
        held.read(seen, 0);
        String text = new String(seen.array(), 0, seen.position(), StandardCharsets.US_ASCII);
        assertEquals("an old key\n", text, "what the holder of the old file reads");
      }
    }
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(
            Files.getPosixFilePermissions(directory.resolve("party-0-key.pem"))));
    assertTrue(
        Files.readString(directory.resolve("party-0-key.pem"))
            .startsWith("-----BEGIN PRIVATE KEY"));
  }

  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";

  @Test
  void generateClients_certificatesOfTheSameCaBindClientIdsForClientAuthenticationOnly()
      throws Exception {
    Certificates.generate(directory, 2);
    byte[] caBefore = Files.readAllBytes(directory.resolve("ca.pem"));
    Certificates.generateClients(directory, 3);
    assertArrayEquals(caBefore, Files.readAllBytes(directory.resolve("ca.pem")), "CA untouched");
    X509Certificate ca = TlsIdentity.load(directory, 0).ca();
    for (int c = 0; c < 3; c++) {
      TlsIdentity client = TlsIdentity.loadClient(directory, c);
      X509Certificate cert = client.certificate();
      assertEquals("cohort-client-" + c, Certificates.commonNameOf(cert));
      assertEquals(c, client.client());
      assertEquals(c, Certificates.clientOf(cert));
      assertEquals(-1, client.party(), "a client is no party");
      cert.verify(ca.getPublicKey()); // throws unless the deployment's CA signed it
      assertEquals(List.of(CLIENT_AUTH), cert.getExtendedKeyUsage());
      boolean[] usage = cert.getKeyUsage();
      assertTrue(usage[0], "digitalSignature");
      for (int bit = 1; bit < usage.length; bit++) {
        assertEquals(false, usage[bit], "key usage bit " + bit);
      }
      assertEquals(-1, cert.getBasicConstraints(), "a client certificate is no CA");
    }
    X509Certificate party = TlsIdentity.load(directory, 1).certificate();
    assertEquals(-1, Certificates.clientOf(party), "a party is no client");
    assertEquals(List.of(SERVER_AUTH, CLIENT_AUTH), party.getExtendedKeyUsage());
  }

  @Test
  void generateClients_clientKeyFiles_areOwnerOnly() throws Exception {
    assumePosix();
    Certificates.generate(directory, 1);
    Certificates.generateClients(directory, 2);
    for (String key : List.of("client-0-key.pem", "client-1-key.pem")) {
      assertEquals(
          "rw-------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(directory.resolve(key))),
          key);
    }
  }

  @Test
  void generateClients_withoutTheCaKey_failsNamingTheFile() throws Exception {
    Certificates.generate(directory, 1);
    Files.delete(directory.resolve("ca-key.pem"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Certificates.generateClients(directory, 1));
    assertTrue(
        e.getMessage().startsWith(directory.resolve("ca-key.pem") + " is missing: "),
        e.getMessage());
    assertTrue(Files.notExists(directory.resolve("client-0.pem")));
  }

  @Test
  void generateClients_caKeyOfAnotherCa_isRefused(@TempDir Path other) throws Exception {
    Certificates.generate(directory, 1);
    Certificates.generate(other, 1);
    Files.copy(
        other.resolve("ca-key.pem"),
        directory.resolve("ca-key.pem"),
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Certificates.generateClients(directory, 1));
    assertEquals(
        directory.resolve("ca-key.pem") + " is not the key of the CA in ca.pem beside it",
        e.getMessage());
    assertTrue(Files.notExists(directory.resolve("client-0.pem")));
  }

  @Test
  void generateClients_noClients_isRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> Certificates.generateClients(directory, 0));
    assertEquals("clients (0) must be >= 1", e.getMessage());
  }
}
