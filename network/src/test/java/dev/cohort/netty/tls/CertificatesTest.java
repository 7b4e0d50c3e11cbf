package dev.cohort.netty.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
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
}
