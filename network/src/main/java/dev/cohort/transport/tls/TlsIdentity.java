package dev.cohort.transport.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSslCachingX509KeyManagerFactory;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.KeyManagerFactoryWrapper;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * One party's (or input client's) TLS material: the CA every peer must chain to, and this side's
 * certificate and private key. It builds the TLS 1.3 contexts of both roles, for the mesh and for
 * the client link, each requiring the other side's certificate (mutual authentication), with the
 * TLS implementation {@code provider} chooses.
 */
public record TlsIdentity(
    X509Certificate ca, X509Certificate certificate, PrivateKey key, TlsProvider provider) {

  public TlsIdentity {
    if (provider == null) {
      throw new IllegalArgumentException("TLS provider must not be null (TlsProvider.AUTO: any)");
    }
  }

  /** This party's material with {@link TlsProvider#AUTO}. */
  public TlsIdentity(X509Certificate ca, X509Certificate certificate, PrivateKey key) {
    this(ca, certificate, key, TlsProvider.AUTO);
  }

  /** The same material with another TLS implementation. */
  public TlsIdentity withProvider(TlsProvider provider) {
    return new TlsIdentity(ca, certificate, key, provider);
  }

  private static final String TLS_13 = "TLSv1.3";

  /** Reads party {@code party}'s files from a directory written by {@link Certificates}. */
  public static TlsIdentity load(Path directory, int party) {
    return new TlsIdentity(
        Certificates.readCertificate(directory.resolve("ca.pem")),
        Certificates.readCertificate(directory.resolve("party-" + party + ".pem")),
        Certificates.readPrivateKey(directory.resolve("party-" + party + "-key.pem")));
  }

  /** Reads input client {@code client}'s files from a directory written by {@link Certificates}. */
  public static TlsIdentity loadClient(Path directory, int client) {
    return new TlsIdentity(
        Certificates.readCertificate(directory.resolve("ca.pem")),
        Certificates.readCertificate(directory.resolve("client-" + client + ".pem")),
        Certificates.readPrivateKey(directory.resolve("client-" + client + "-key.pem")));
  }

  /** The party id this identity's certificate binds, or -1 when it binds none. */
  public int party() {
    return Certificates.partyOf(certificate);
  }

  /** The input client id this identity's certificate binds, or -1 when it binds none. */
  public int client() {
    return Certificates.clientOf(certificate);
  }

  /** This party's key and certificate, without a keystore (see {@link FixedKeyManager}). */
  private KeyManagerFactory keyManagers() {
    return new KeyManagerFactoryWrapper(new FixedKeyManager(key, certificate));
  }

  /** {@link #keyManagers}, with BoringSSL's copy of the key made once per context. */
  private KeyManagerFactory cachedKeyManagers() {
    return new OpenSslCachingX509KeyManagerFactory(keyManagers());
  }

  /**
   * A JDK TLS 1.3 context for both roles that presents this party's certificate and trusts only the
   * CA, for transports on blocking sockets. Unlike the Netty contexts it cannot require client
   * authentication by itself: the server side of each socket must ask for it ({@code
   * SSLSocket.setNeedClientAuth(true)}). Always the JDK's TLS, whatever {@link #provider} says.
   */
  public SSLContext jdkContext() {
    try {
      SSLContext context = SSLContext.getInstance(TLS_13);
      context.init(
          new KeyManager[] {new FixedKeyManager(key, certificate)},
          caTrust().getTrustManagers(),
          null);
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("could not build the JDK TLS context: " + e, e);
    }
  }

  /** The JDK's PKIX trust managers with the CA as the only anchor. */
  private TrustManagerFactory caTrust() throws GeneralSecurityException, IOException {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    trusted.setCertificateEntry("cohort-ca", ca); // a certificate entry: no password, no PBKDF2
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    return trust;
  }

  /**
   * The TLS context of a client link server ({@code dev.cohort.clientlink}): presents this party's
   * certificate and requires an input client's certificate of the CA; a party's certificate
   * presented by a client fails the handshake. Its engines should issue no session tickets ({@link
   * SessionTickets#refuse}).
   */
  public SslContext clientLinkServerContext() {
    return build(
        SslContextBuilder.forServer(cachedKeyManagers())
            .trustManager(new RoleTrustManager(ca, true))
            .clientAuth(ClientAuth.REQUIRE),
        "client link server");
  }

  /**
   * The TLS context of an input client: presents this client's certificate and accepts a server
   * only if it proves the party certificate whose CN is the peer host the handler was made with
   * ({@code newHandler(alloc, Certificates.commonName(i), port)} for server i). It keeps no TLS
   * session: a client link never resumes one.
   */
  public SslContext clientLinkClientContext() {
    return SessionTickets.withoutClientCache(
        build(
            SslContextBuilder.forClient()
                .keyManager(cachedKeyManagers())
                .trustManager(new RoleTrustManager(ca, false)),
            "client link client"));
  }

  private SslContext build(SslContextBuilder builder, String role) {
    try {
      return builder.protocols(TLS_13).sslProvider(provider.resolve()).build();
    } catch (SSLException e) {
      throw new IllegalStateException("could not build the TLS " + role + " context: " + e, e);
    }
  }

  public SslContext serverContext() {
    return build(
        SslContextBuilder.forServer(keyManagers()).trustManager(ca).clientAuth(ClientAuth.REQUIRE),
        "server");
  }

  public SslContext clientContext() {
    return build(
        SslContextBuilder.forClient().keyManager(keyManagers()).trustManager(ca), "client");
  }
}
