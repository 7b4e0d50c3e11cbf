package dev.cohort.transport.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECFieldFp;
import java.security.spec.ECParameterSpec;
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
 * Server certificates are few: a verified one is remembered (by its encoding, with the CA key that
 * verified it) so that a JVM simulating many clients verifies each server's once, with
 * BouncyCastle's verifier, which needs no table.
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
  private static final int MAX_REMEMBERED = 256;

  private static final ConcurrentHashMap<ByteBuffer, ECPoint> VERIFIED_SERVERS =
      new ConcurrentHashMap<>();

  private final X500Principal issuer;
  private final ECPublicKeyParameters caKey;
  private volatile P256Verifier clientVerifier; // made on first use: see clientVerifier()

  /** Checks against {@code ca}, whose key must be ECDSA P-256 as {@link Certificates} makes it. */
  LeafCheck(X509Certificate ca) {
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
    if (SERVER_AUTH.equals(purpose)) {
      verifyRemembered(leaf);
    } else {
      verify(leaf, clientVerifier());
    }
    leaf.checkValidity();
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

  private void verifyRemembered(X509Certificate leaf) throws CertificateException {
    ByteBuffer encoding = ByteBuffer.wrap(leaf.getEncoded());
    if (caKey.getQ().equals(VERIFIED_SERVERS.get(encoding))) {
      return;
    }
    verify(leaf, null);
    if (VERIFIED_SERVERS.size() >= MAX_REMEMBERED) {
      VERIFIED_SERVERS.clear();
    }
    VERIFIED_SERVERS.put(encoding, caKey.getQ());
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
