package dev.cohort.transport.tls;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.SignatureException;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.Set;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.RDN;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x500.style.IETFUtils;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.ContentSigner;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Generates and reads the PEM files of a Cohort deployment: one CA and, per party, a key pair and a
 * certificate signed by the CA whose subject CN ({@code cohort-party-2}) binds the party id; and,
 * for the input clients of the client link, the same per client ({@code cohort-client-7}).
 *
 * <p>Layout of a keys directory: {@code ca.pem}, {@code ca-key.pem}, for party {@code i} {@code
 * party-i.pem} and {@code party-i-key.pem} (PKCS#8), and for client {@code j} {@code client-j.pem}
 * and {@code client-j-key.pem}. Keys are ECDSA P-256; certificates are valid for {@link #VALIDITY}.
 * A party's allows both TLS client and server authentication, because every party both dials and
 * accepts; a client's allows client authentication only, so no TLS client accepts it as a server's.
 * Private key files are readable by their owner only (0600) from the moment they exist.
 */
public final class Certificates {

  /** How long generated certificates are valid. */
  public static final Duration VALIDITY = Duration.ofDays(730);

  private static final String CN_PREFIX = "cohort-party-";
  private static final String CLIENT_CN_PREFIX = "cohort-client-";
  private static final String SIGNATURE = "SHA256withECDSA";
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private Certificates() {}

  /** The subject CN that binds {@code party}. */
  public static String commonName(int party) {
    return CN_PREFIX + party;
  }

  /** The subject CN that binds input client {@code client}. */
  public static String clientCommonName(int client) {
    return CLIENT_CN_PREFIX + client;
  }

  /** The party id a certificate binds, or -1 when its CN is not a Cohort party's. */
  public static int partyOf(X509Certificate certificate) {
    return indexOf(certificate, CN_PREFIX);
  }

  /** The client id a certificate binds, or -1 when its CN is not a Cohort input client's. */
  public static int clientOf(X509Certificate certificate) {
    return indexOf(certificate, CLIENT_CN_PREFIX);
  }

  /** The party id a CN binds, or -1 when it is not a Cohort party's. */
  static int partyOfCommonName(String cn) {
    return indexOf(cn, CN_PREFIX);
  }

  /** The index after {@code prefix} in the certificate's CN, or -1 when there is none. */
  private static int indexOf(X509Certificate certificate, String prefix) {
    return indexOf(commonNameOf(certificate), prefix);
  }

  /** The index after {@code prefix} in {@code cn}, or -1 when there is none. */
  private static int indexOf(String cn, String prefix) {
    if (cn == null || !cn.startsWith(prefix)) {
      return -1;
    }
    try {
      return Math.max(-1, Integer.parseInt(cn.substring(prefix.length())));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The subject CN of {@code certificate}, or null when it has none. */
  public static String commonNameOf(X509Certificate certificate) {
    X500Name subject = X500Name.getInstance(certificate.getSubjectX500Principal().getEncoded());
    RDN[] cns = subject.getRDNs(BCStyle.CN);
    if (cns.length == 0) {
      return null;
    }
    ASN1Encodable value = cns[0].getFirst().getValue();
    return IETFUtils.valueToString(value);
  }

  /**
   * Writes a fresh CA and keys and certificates for parties {@code 0 .. parties - 1} into {@code
   * directory} (created if missing); existing files are overwritten.
   */
  public static void generate(Path directory, int parties) {
    if (parties < 1) {
      throw new IllegalArgumentException("parties (" + parties + ") must be >= 1");
    }
    try {
      Files.createDirectories(directory);
      KeyPair caKeys = keyPair();
      X509Certificate ca = caCertificate(caKeys);
      writePem(directory.resolve("ca.pem"), ca);
      writeKey(directory.resolve("ca-key.pem"), caKeys.getPrivate());
      for (int p = 0; p < parties; p++) {
        KeyPair keys = keyPair();
        X509Certificate cert =
            leafCertificate(commonName(p), keys.getPublic(), ca, caKeys.getPrivate(), true);
        writePem(directory.resolve("party-" + p + ".pem"), cert);
        writeKey(directory.resolve("party-" + p + "-key.pem"), keys.getPrivate());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write keys to " + directory, e);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("could not generate keys: " + e.getMessage(), e);
    }
  }

  /**
   * Writes keys and certificates for input clients {@code 0 .. clients - 1} into {@code directory},
   * signed by the CA whose certificate and key ({@code ca.pem}, {@code ca-key.pem}) are there
   * already; existing client files are overwritten, nothing else is touched.
   */
  public static void generateClients(Path directory, int clients) {
    if (clients < 1) {
      throw new IllegalArgumentException("clients (" + clients + ") must be >= 1");
    }
    Path caFile = directory.resolve("ca.pem");
    Path caKeyFile = directory.resolve("ca-key.pem");
    for (Path needed : new Path[] {caFile, caKeyFile}) {
      if (!Files.isRegularFile(needed)) {
        throw new IllegalArgumentException(
            needed
                + " is missing: client certificates are signed by the deployment's CA, whose"
                + " certificate and key must be in "
                + directory);
      }
    }
    X509Certificate ca = readCertificate(caFile);
    PrivateKey caKey = readPrivateKey(caKeyFile);
    try {
      for (int c = 0; c < clients; c++) {
        KeyPair keys = keyPair();
        X509Certificate cert =
            leafCertificate(clientCommonName(c), keys.getPublic(), ca, caKey, false);
        if (c == 0) {
          checkSignedBy(cert, ca, caKeyFile);
        }
        writePem(directory.resolve("client-" + c + ".pem"), cert);
        writeKey(directory.resolve("client-" + c + "-key.pem"), keys.getPrivate());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not write client keys to " + directory, e);
    } catch (GeneralSecurityException | OperatorCreationException e) {
      throw new IllegalStateException("could not generate client keys: " + e.getMessage(), e);
    }
  }

  /** A CA key that is not the CA certificate's would sign certificates nobody trusts. */
  private static void checkSignedBy(X509Certificate cert, X509Certificate ca, Path caKeyFile)
      throws GeneralSecurityException {
    try {
      cert.verify(ca.getPublicKey());
    } catch (SignatureException e) {
      throw new IllegalArgumentException(
          caKeyFile + " is not the key of the CA in ca.pem beside it", e);
    }
  }

  private static KeyPair keyPair() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
    return generator.generateKeyPair();
  }

  private static X509Certificate caCertificate(KeyPair keys)
      throws GeneralSecurityException, OperatorCreationException, IOException {
    X500Name name = new X500Name("CN=cohort-ca");
    X509v3CertificateBuilder builder = builder(name, name, keys.getPublic());
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    builder
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
        .addExtension(
            Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
        .addExtension(
            Extension.subjectKeyIdentifier,
            false,
            ext.createSubjectKeyIdentifier(keys.getPublic()));
    return sign(builder, keys.getPrivate());
  }

  /**
   * A certificate for {@code commonName} signed by the CA: a party's ({@code party} true) may
   * authenticate TLS servers and clients, a client's only TLS clients, so that no TLS client
   * accepts it as a server's.
   */
  private static X509Certificate leafCertificate(
      String commonName, PublicKey key, X509Certificate ca, PrivateKey caKey, boolean party)
      throws GeneralSecurityException, OperatorCreationException, IOException {
    int keyUsage =
        party ? KeyUsage.digitalSignature | KeyUsage.keyAgreement : KeyUsage.digitalSignature;
    KeyPurposeId[] purposes =
        party
            ? new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}
            : new KeyPurposeId[] {KeyPurposeId.id_kp_clientAuth};
    X500Name issuer = X500Name.getInstance(ca.getSubjectX500Principal().getEncoded());
    X509v3CertificateBuilder builder = builder(issuer, new X500Name("CN=" + commonName), key);
    JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
    builder
        .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
        .addExtension(Extension.keyUsage, true, new KeyUsage(keyUsage))
        .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purposes))
        .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(key))
        .addExtension(
            Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(ca));
    return sign(builder, caKey);
  }

  private static X509v3CertificateBuilder builder(
      X500Name issuer, X500Name subject, PublicKey key) {
    Instant now = Instant.now();
    BigInteger serial = new BigInteger(127, new SecureRandom());
    return new JcaX509v3CertificateBuilder(
        issuer,
        serial,
        Date.from(now.minus(Duration.ofHours(1))),
        Date.from(now.plus(VALIDITY)),
        subject,
        key);
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey key)
      throws GeneralSecurityException, OperatorCreationException {
    ContentSigner signer = new JcaContentSignerBuilder(SIGNATURE).build(key);
    return new JcaX509CertificateConverter().getCertificate(builder.build(signer));
  }

  private static void writePem(Path file, Object object) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII);
        JcaPEMWriter pem = new JcaPEMWriter(w)) {
      pem.writeObject(object);
    }
  }

  /**
   * Writes a private key into a new file that only its owner may read from the moment it exists,
   * then moves it over {@code file}. The key is never in a file others may open: not in a new one
   * created with the umask's permissions and restricted afterwards, nor in an existing one that was
   * readable before (someone holding that file open reads its old bytes, never the new key).
   */
  private static void writeKey(Path file, PrivateKey key) throws IOException {
    Path fresh = ownerOnlyFile(file);
    try {
      writePem(fresh, new JcaPKCS8Generator(key, null));
      Files.move(fresh, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(fresh); // gone already unless writing or moving failed
    }
  }

  /** A new empty file beside {@code file}, read-write for its owner only where POSIX applies. */
  private static Path ownerOnlyFile(Path file) throws IOException {
    Path directory = file.toAbsolutePath().getParent();
    String prefix = "." + file.getFileName() + ".";
    try {
      return Files.createTempFile(
          directory, prefix, ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
    } catch (UnsupportedOperationException e) {
      // Not a POSIX file system: the directory's own permissions (ACLs) protect the key.
      return Files.createTempFile(directory, prefix, ".tmp");
    }
  }

  /** Reads the first certificate in a PEM file. */
  public static X509Certificate readCertificate(Path file) {
    Object object = readPem(file);
    if (!(object instanceof X509CertificateHolder holder)) {
      throw new IllegalArgumentException(file + " does not hold a PEM certificate");
    }
    try {
      return new JcaX509CertificateConverter().getCertificate(holder);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(file + " holds an unreadable certificate", e);
    }
  }

  /** Reads a PKCS#8 private key from a PEM file. */
  public static PrivateKey readPrivateKey(Path file) {
    Object object = readPem(file);
    if (!(object instanceof PrivateKeyInfo info)) {
      throw new IllegalArgumentException(file + " does not hold a PKCS#8 PEM private key");
    }
    try {
      return new JcaPEMKeyConverter().getPrivateKey(info);
    } catch (IOException e) {
      throw new IllegalArgumentException(file + " holds an unreadable private key", e);
    }
  }

  private static Object readPem(Path file) {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII);
        PEMParser parser = new PEMParser(r)) {
      Object object = parser.readObject();
      if (object == null) {
        throw new IllegalArgumentException(file + " holds no PEM object");
      }
      return object;
    } catch (IOException e) {
      throw new UncheckedIOException("could not read " + file, e);
    }
  }
}
