package dev.cohort.transport.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client's memory of server certificates that passed ({@link LeafCheck#checkServer}): it never
 * accepts what a fresh check would refuse. The validity period is checked on every use (time is
 * moved by the test's clock), a certificate with the same subject but another signature is checked
 * afresh and refused, a certificate remembered under one CA is checked again under another, and the
 * memory stays bounded.
 */
class LeafCheckMemoryTest {

  @TempDir static Path keys;
  @TempDir static Path otherKeys;
  private static X509Certificate ca;
  private static PrivateKey caKey;
  private static X509Certificate otherCa;
  private static PrivateKey otherCaKey;
  private static KeyPair serverKeys;

  private static final Instant T = Instant.now();

  @BeforeAll
  static void keys() throws Exception {
    Certificates.generate(keys, 2);
    Certificates.generateClients(keys, 1);
    Certificates.generate(otherKeys, 1); // a CA with the same name, cohort-ca, and another key
    ca = Certificates.readCertificate(keys.resolve("ca.pem"));
    caKey = Certificates.readPrivateKey(keys.resolve("ca-key.pem"));
    otherCa = Certificates.readCertificate(otherKeys.resolve("ca.pem"));
    otherCaKey = Certificates.readPrivateKey(otherKeys.resolve("ca-key.pem"));
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp256r1"));
    serverKeys = ec.generateKeyPair();
  }

  /** A clock the test moves. */
  private static final class MovableClock extends Clock {
    Instant now = T;

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  @Test
  void checkServer_rememberedCertificate_isRefusedOutsideItsValidityOnEveryUse() throws Exception {
    MovableClock clock = new MovableClock();
    LeafCheck check = new LeafCheck(ca, clock);
    X509Certificate server =
        issue(
            "cohort-party-0", 11, T.minus(Duration.ofHours(1)), T.plus(Duration.ofHours(1)), caKey);
    assertEquals("cohort-party-0", check.checkServer(server));
    assertEquals("cohort-party-0", check.checkServer(server)); // remembered now
    clock.now = T.plus(Duration.ofHours(2));
    assertThrows(CertificateExpiredException.class, () -> check.checkServer(server));
    assertThrows(CertificateExpiredException.class, () -> check.checkServer(server));
    clock.now = T.minus(Duration.ofHours(2));
    assertThrows(CertificateNotYetValidException.class, () -> check.checkServer(server));
    clock.now = T.plus(Duration.ofMinutes(59));
    assertEquals("cohort-party-0", check.checkServer(server));
    // a fresh check agrees at each of those times
    assertThrows(
        CertificateExpiredException.class,
        () ->
            new LeafCheck(ca, at(T.plus(Duration.ofHours(2))))
                .check(server, LeafCheck.SERVER_AUTH));
  }

  @Test
  void checkServer_sameSubjectAndSerialSignedByAnotherKey_isRefused() throws Exception {
    LeafCheck check = new LeafCheck(ca);
    Instant from = T.minus(Duration.ofDays(1));
    Instant until = T.plus(Duration.ofDays(1));
    X509Certificate genuine = issue("cohort-party-1", 12, from, until, caKey);
    X509Certificate forged = issue("cohort-party-1", 12, from, until, otherCaKey);
    assertEquals("cohort-party-1", check.checkServer(genuine));
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.checkServer(forged));
    assertEquals("CN=cohort-party-1 does not carry the CA's signature", e.getMessage());
    assertEquals("cohort-party-1", check.checkServer(genuine));
  }

  @Test
  void checkServer_rememberedUnderAnotherCa_isCheckedAgainAndRefused() throws Exception {
    X509Certificate foreign = TlsIdentity.load(otherKeys, 0).certificate();
    assertEquals("cohort-party-0", new LeafCheck(otherCa).checkServer(foreign));
    CertificateException e =
        assertThrows(CertificateException.class, () -> new LeafCheck(ca).checkServer(foreign));
    assertEquals("CN=cohort-party-0 does not carry the CA's signature", e.getMessage());
  }

  @Test
  void checkServer_clientCertificate_isRefusedEveryTime() {
    LeafCheck check = new LeafCheck(ca);
    X509Certificate client = TlsIdentity.loadClient(keys, 0).certificate();
    for (int i = 0; i < 2; i++) {
      CertificateException e =
          assertThrows(CertificateException.class, () -> check.checkServer(client));
      assertEquals(
          "CN=cohort-client-0 is not for TLS server authentication (extended key usage)",
          e.getMessage());
    }
  }

  @Test
  void checkServer_manyCertificates_memoryStaysBounded() throws Exception {
    LeafCheck check = new LeafCheck(ca);
    Instant from = T.minus(Duration.ofDays(1));
    Instant until = T.plus(Duration.ofDays(1));
    for (int serial = 100; serial < 100 + LeafCheck.MAX_REMEMBERED + 20; serial++) {
      check.checkServer(issue("cohort-party-1", serial, from, until, caKey));
      assertTrue(LeafCheck.rememberedServers() <= LeafCheck.MAX_REMEMBERED);
    }
  }

  private static Clock at(Instant instant) {
    return Clock.fixed(instant, ZoneOffset.UTC);
  }

  /** A server certificate with the issuer name cohort-ca, signed by {@code signer}. */
  private static X509Certificate issue(
      String cn, long serial, Instant notBefore, Instant notAfter, PrivateKey signer)
      throws Exception {
    JcaX509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            X500Name.getInstance(ca.getSubjectX500Principal().getEncoded()),
            BigInteger.valueOf(serial),
            Date.from(notBefore),
            Date.from(notAfter),
            new X500Name("CN=" + cn),
            serverKeys.getPublic());
    builder
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
        .addExtension(
            Extension.extendedKeyUsage,
            false,
            new ExtendedKeyUsage(
                new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
    return new JcaX509CertificateConverter()
        .getCertificate(
            builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
  }
}
