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
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client link's certificate rules, each broken once by a certificate made by hand with the
 * deployment's CA key (or another), and the certificates {@code cohort keys} writes passing them.
 */
class LeafCheckTest {

  @TempDir static Path keys;
  @TempDir static Path otherKeys;
  private static X509Certificate ca;
  private static PrivateKey caKey;
  private static LeafCheck check;

  @BeforeAll
  static void keys() {
    Certificates.generate(keys, 2);
    Certificates.generateClients(keys, 1);
    Certificates.generate(otherKeys, 1);
    ca = Certificates.readCertificate(keys.resolve("ca.pem"));
    caKey = Certificates.readPrivateKey(keys.resolve("ca-key.pem"));
    check = new LeafCheck(ca);
  }

  @Test
  void check_generatedCertificates_passForTheirRolesOnly() throws Exception {
    X509Certificate client = TlsIdentity.loadClient(keys, 0).certificate();
    X509Certificate party = TlsIdentity.load(keys, 1).certificate();
    check.check(client, LeafCheck.CLIENT_AUTH);
    check.check(party, LeafCheck.CLIENT_AUTH);
    check.check(party, LeafCheck.SERVER_AUTH);
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(client, LeafCheck.SERVER_AUTH));
    assertEquals(
        "CN=cohort-client-0 is not for TLS server authentication (extended key usage)",
        e.getMessage());
  }

  @Test
  void check_certificateOfAnotherCaWithTheSameName_isRefusedBySignature() {
    X509Certificate other = TlsIdentity.load(otherKeys, 0).certificate(); // issuer CN=cohort-ca too
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(other, LeafCheck.SERVER_AUTH));
    assertEquals("CN=cohort-party-0 does not carry the CA's signature", e.getMessage());
  }

  @Test
  void check_clientCertificateOfAnotherCaWithTheSameNames_isRefusedBySignature() {
    Certificates.generateClients(otherKeys, 1); // CN=cohort-client-0, issuer CN=cohort-ca too
    X509Certificate other = TlsIdentity.loadClient(otherKeys, 0).certificate();
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(other, LeafCheck.CLIENT_AUTH));
    assertEquals("CN=cohort-client-0 does not carry the CA's signature", e.getMessage());
  }

  @Test
  void check_clientCertificateWithItsSignatureAltered_isRefused() throws Exception {
    X509Certificate good = TlsIdentity.loadClient(keys, 0).certificate();
    byte[] der = good.getEncoded();
    der[der.length - 1] ^= 1; // the last byte of s in the signature value
    X509Certificate altered =
        (X509Certificate)
            java.security.cert.CertificateFactory.getInstance("X.509")
                .generateCertificate(new java.io.ByteArrayInputStream(der));
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(altered, LeafCheck.CLIENT_AUTH));
    assertEquals("CN=cohort-client-0 does not carry the CA's signature", e.getMessage());
  }

  @Test
  void check_serverCertificateRememberedUnderOneCa_isStillRefusedUnderAnother() throws Exception {
    X509Certificate other = TlsIdentity.load(otherKeys, 0).certificate();
    new LeafCheck(TlsIdentity.load(otherKeys, 0).ca()).check(other, LeafCheck.SERVER_AUTH);
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(other, LeafCheck.SERVER_AUTH));
    assertEquals("CN=cohort-party-0 does not carry the CA's signature", e.getMessage());
  }

  @Test
  void check_expiredCertificate_isRefused() throws Exception {
    X509Certificate expired =
        issue("cohort-client-5", Instant.now().minus(Duration.ofDays(1)), false, null);
    assertThrows(
        CertificateExpiredException.class, () -> check.check(expired, LeafCheck.CLIENT_AUTH));
  }

  @Test
  void check_theCaCertificateItself_isRefusedAsACa() {
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(ca, LeafCheck.CLIENT_AUTH));
    assertEquals("CN=cohort-ca is a CA", e.getMessage());
  }

  @Test
  void check_unknownCriticalExtension_isRefused() throws Exception {
    X509Certificate odd =
        issue("cohort-client-6", Instant.now().plus(Duration.ofDays(1)), false, "1.2.3.4.5");
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(odd, LeafCheck.CLIENT_AUTH));
    assertTrue(e.getMessage().startsWith("CN=cohort-client-6 has unknown critical extensions"));
  }

  @Test
  void check_issuedByTheCaAsASubCa_isRefused() throws Exception {
    X509Certificate subCa =
        issue("cohort-client-7", Instant.now().plus(Duration.ofDays(1)), true, null);
    CertificateException e =
        assertThrows(CertificateException.class, () -> check.check(subCa, LeafCheck.CLIENT_AUTH));
    assertEquals("CN=cohort-client-7 is a CA", e.getMessage());
  }

  @Test
  void check_handMadeClientCertificate_passes() throws Exception {
    // The control for the tests above: the same recipe with nothing broken is accepted.
    check.check(
        issue("cohort-client-8", Instant.now().plus(Duration.ofDays(1)), false, null),
        LeafCheck.CLIENT_AUTH);
  }

  @Test
  void construct_caWithoutAnEcP256Key_isRefused() throws Exception {
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    KeyPair keys = rsa.generateKeyPair();
    X500Name name = new X500Name("CN=rsa-ca");
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            name,
            BigInteger.ONE,
            Date.from(Instant.now().minus(Duration.ofHours(1))),
            Date.from(Instant.now().plus(Duration.ofDays(1))),
            name,
            keys.getPublic());
    X509Certificate rsaCa =
        new JcaX509CertificateConverter()
            .getCertificate(
                builder.build(
                    new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate())));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new LeafCheck(rsaCa));
    assertTrue(e.getMessage().startsWith("the client link needs a CA with an ECDSA P-256 key"));
  }

  /**
   * A client certificate signed by the deployment's CA, valid until {@code notAfter}, a CA itself
   * when {@code isCa}, with a critical extension {@code criticalOid} when not null.
   */
  private static X509Certificate issue(
      String cn, Instant notAfter, boolean isCa, String criticalOid) throws Exception {
    KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
    ec.initialize(new ECGenParameterSpec("secp256r1"));
    KeyPair keys = ec.generateKeyPair();
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            X500Name.getInstance(ca.getSubjectX500Principal().getEncoded()),
            BigInteger.TEN,
            Date.from(notAfter.minus(Duration.ofDays(10))),
            Date.from(notAfter),
            new X500Name("CN=" + cn),
            keys.getPublic());
    builder
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa))
        .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature))
        .addExtension(
            Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_clientAuth));
    if (criticalOid != null) {
      builder.addExtension(
          new ASN1ObjectIdentifier(criticalOid), true, new DEROctetString(new byte[] {5, 0}));
    }
    return new JcaX509CertificateConverter()
        .getCertificate(builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caKey)));
  }
}
