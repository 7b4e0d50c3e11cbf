package dev.cohort.transport.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.security.auth.x500.X500Principal;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;
import org.bouncycastle.math.ec.ECPoint;

/**
 * Whether a certificate is one the deployment's CA issued for TLS authentication in a given role,
 * checked the way the JDK's PKIX validation checks a chain of one certificate under a trust anchor:
 * issued by the CA (issuer name, SHA256withECDSA signature by the CA's P-256 key), valid now, not a
 * CA, no critical extension it does not know, the {@code digitalSignature} key usage when the
 * certificate restricts it, and the extended key usage of the role. Invariant: {@link #check}
 * returns only for such a certificate; anything else throws a {@link CertificateException} saying
 * which rule failed.
 *
 * <p>Why not the JDK's trust manager, as the mesh uses: on JDK 17 its ECDSA verification costs 980
 * µs of CPU per certificate, BouncyCastle's 100 µs (x86-64, 200 certificates, warm). A client link
 * server verifies the certificate of every client that connects, each one it has not seen (the
 * JDK's cache of parsed certificates holds 750), so for 1000 clients per session that is a second
 * of CPU against a tenth. The CA's key and the curve's base point keep their precomputed multiples
 * across calls.
 *
 * <p>Client certificates are many: a server checks their signatures with {@link P256Verifier}
 * (tables of the base point and the CA key: 36 µs instead of BouncyCastle's 67 µs, and no garbage).
 * Server certificates are few: one that passed is remembered ({@link #checkServer}: by its
 * encoding, with the CA key that verified it, its validity period and its CN, at most {@value
 * #MAX_REMEMBERED}) so that a client that reconnects, or a JVM simulating many clients, checks each
 * server's once, with BouncyCastle's verifier (no table to build), and afterwards only compares
 * bytes and checks the validity period, without parsing the certificate again.
 */
final class LeafCheck {

  private static final String SHA256_WITH_ECDSA = "1.2.840.10045.4.3.2";
  static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";

  /** Key usage, basic constraints, extended key usage: the extensions checked below. */
  private static final Set<String> KNOWN_CRITICAL = Set.of("2.5.29.15", "2.5.29.19", "2.5.29.37");

  private static final X9ECParameters P256 = CustomNamedCurves.getByName("secp256r1");
  private static final ECDomainParameters DOMAIN =
      new ECDomainParameters(P256.getCurve(), P256.getG(), P256.getN(), P256.getH());

  /** Most server certificates remembered; the memory is emptied when it is full. */
  static final int MAX_REMEMBERED = 256;

  private static final ConcurrentHashMap<Encoding, Passed> PASSED_SERVERS =
      new ConcurrentHashMap<>();

  private final X500Principal issuer;
  private final ECPublicKeyParameters caKey;
  private final Clock clock;
  private volatile P256Verifier clientVerifier; // made on first use: see clientVerifier()

  /** Checks against {@code ca}, whose key must be ECDSA P-256 as {@link Certificates} makes it. */
  LeafCheck(X509Certificate ca) {
    this(ca, Clock.systemUTC());
  }

  /** Checks against {@code ca} with "now" from {@code clock} (a test's, to move time). */
  LeafCheck(X509Certificate ca, Clock clock) {
    if (!(ca.getPublicKey() instanceof ECPublicKey key) || !isP256(key.getParams())) {
      throw new IllegalArgumentException(
          "the client link needs a CA with an ECDSA P-256 key, as cohort keys makes; CN="
              + Certificates.commonNameOf(ca)
              + " has a "
              + ca.getPublicKey().getAlgorithm()
              + " key");
    }
    this.issuer = ca.getSubjectX500Principal();
    ECPoint q =
        P256.getCurve().createPoint(key.getW().getAffineX(), key.getW().getAffineY()); // on curve
    this.caKey = new ECPublicKeyParameters(q, DOMAIN);
    this.clock = clock;
  }

  private static boolean isP256(ECParameterSpec params) {
    return params.getCurve().getField() instanceof ECFieldFp field
        && field.getP().equals(P256.getCurve().getField().getCharacteristic())
        && params.getCurve().getA().equals(P256.getCurve().getA().toBigInteger())
        && params.getCurve().getB().equals(P256.getCurve().getB().toBigInteger())
        && params.getOrder().equals(P256.getN());
  }

  /**
   * Throws unless {@code leaf} is a certificate of the CA for {@code purpose} ({@link #CLIENT_AUTH}
   * or {@link #SERVER_AUTH}).
   */
  void check(X509Certificate leaf, String purpose) throws CertificateException {
    if (!issuer.equals(leaf.getIssuerX500Principal())) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " is not issued by the deployment's CA");
    }
    if (!SHA256_WITH_ECDSA.equals(leaf.getSigAlgOID())) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " is signed with " + leaf.getSigAlgName());
    }
    verify(leaf, SERVER_AUTH.equals(purpose) ? null : clientVerifier());
    leaf.checkValidity(Date.from(clock.instant()));
    if (leaf.getBasicConstraints() != -1) {
      throw new CertificateException("CN=" + Certificates.commonNameOf(leaf) + " is a CA");
    }
    Set<String> critical = leaf.getCriticalExtensionOIDs();
    if (critical != null && !KNOWN_CRITICAL.containsAll(critical)) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " has unknown critical extensions " + critical);
    }
    boolean[] keyUsage = leaf.getKeyUsage();
    if (keyUsage != null && !keyUsage[0]) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " may not sign (key usage)");
    }
    List<String> purposes = leaf.getExtendedKeyUsage();
    if (purposes == null || !purposes.contains(purpose)) {
      throw new CertificateException(
          "CN="
              + Certificates.commonNameOf(leaf)
              + " is not for TLS "
              + (CLIENT_AUTH.equals(purpose) ? "client" : "server")
              + " authentication (extended key usage)");
    }
  }

  /**
   * {@link #check}{@code (leaf, SERVER_AUTH)}, and returns the certificate's CN. A certificate that
   * passed before under this CA key, byte for byte the same, is not checked again but for its
   * validity period, which is checked against now on every use: its issuer, signature, extensions
   * and CN are in those bytes, its validity is the only rule that changes with time.
   */
  String checkServer(X509Certificate leaf) throws CertificateException {
    Encoding encoding = new Encoding(leaf.getEncoded());
    Passed passed = PASSED_SERVERS.get(encoding);
    if (passed != null && passed.caKey().equals(caKey.getQ())) {
      passed.checkValidity(clock.instant());
      return passed.commonName();
    }
    check(leaf, SERVER_AUTH);
    String commonName = Certificates.commonNameOf(leaf);
    if (PASSED_SERVERS.size() >= MAX_REMEMBERED) {
      PASSED_SERVERS.clear();
    }
    PASSED_SERVERS.put(
        encoding,
        new Passed(
            caKey.getQ(),
            leaf.getNotBefore().toInstant(),
            leaf.getNotAfter().toInstant(),
            commonName));
    return commonName;
  }

  /** Server certificates remembered now (a test's view of the bound). */
  static int rememberedServers() {
    return PASSED_SERVERS.size();
  }

  /** A certificate's encoding as a map key, compared byte for byte. */
  private static final class Encoding {
    private final byte[] bytes;
    private final int hash;

    Encoding(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Encoding e && hash == e.hash && Arrays.equals(bytes, e.bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /** A server certificate that passed under {@code caKey}, and what a later use must check. */
  private record Passed(ECPoint caKey, Instant notBefore, Instant notAfter, String commonName) {

    /** As {@link X509Certificate#checkValidity(Date)}: valid from notBefore through notAfter. */
    void checkValidity(Instant now) throws CertificateException {
      if (now.isAfter(notAfter)) {
        throw new CertificateExpiredException("CN=" + commonName + " expired at " + notAfter);
      }
      if (now.isBefore(notBefore)) {
        throw new CertificateNotYetValidException(
            "CN=" + commonName + " is not valid before " + notBefore);
      }
    }
  }

  /** The verifier with the CA key's table, made on the first client certificate checked. */
  private P256Verifier clientVerifier() {
    P256Verifier v = clientVerifier;
    if (v == null) {
      v = new P256Verifier(caKey.getQ());
      clientVerifier = v;
    }
    return v;
  }

  /**
   * The CA's signature over the certificate's TBS part, checked by {@code tablesOrNull} or, when it
   * is null, by BouncyCastle's {@link ECDSASigner} (no table to build for a few certificates).
   */
  private void verify(X509Certificate leaf, P256Verifier tablesOrNull) throws CertificateException {
    boolean valid;
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(leaf.getTBSCertificate());
      BigInteger[] rs = StandardDSAEncoding.INSTANCE.decode(DOMAIN.getN(), leaf.getSignature());
      if (tablesOrNull != null) {
        valid = tablesOrNull.verify(digest, rs[0], rs[1]);
      } else {
        ECDSASigner signer = new ECDSASigner();
        signer.init(false, caKey);
        valid = signer.verifySignature(digest, rs[0], rs[1]);
      }
    } catch (GeneralSecurityException | IllegalArgumentException | IOException e) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " has an unreadable signature", e);
    }
    if (!valid) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " does not carry the CA's signature");
    }
  }
}
