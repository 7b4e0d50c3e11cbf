package dev.cohort.transport.tls;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts a peer of the client link only when its certificate is issued by the deployment's CA for
 * the peer's role ({@link LeafCheck}: signature, validity, extended key usage, ...) and is of the
 * role this side expects: on a server, any input client's ({@code cohort-client-J}), never a
 * party's; on a client, the party's whose CN the connection names as its peer host ({@code
 * cohort-party-i} for server i), so that a server answering at another server's address fails the
 * TLS handshake. Invariant: a handshake completes only with a peer of the expected role and, on a
 * client, the expected index.
 *
 * <p>The peer host of a client's engine is the CN it expects rather than the server's host name:
 * the server's address proves nothing, its certificate everything, and the host name serves no
 * other purpose here (Netty sends no SNI for a name without a dot).
 */
final class RoleTrustManager extends X509ExtendedTrustManager {

  private final X509Certificate ca;
  private final LeafCheck leaves;
  private final boolean acceptsClients; // true on a server of the client link

  RoleTrustManager(X509Certificate ca, boolean acceptsClients) {
    this.ca = ca;
    this.leaves = new LeafCheck(ca);
    this.acceptsClients = acceptsClients;
  }

  private static X509Certificate leaf(X509Certificate[] chain) throws CertificateException {
    if (chain == null || chain.length == 0) {
      throw new CertificateException("no certificate");
    }
    return chain[0];
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    if (!acceptsClients) {
      throw new CertificateException("this side of the client link accepts no clients");
    }
    X509Certificate leaf = leaf(chain);
    leaves.check(leaf, LeafCheck.CLIENT_AUTH);
    if (Certificates.clientOf(leaf) < 0) {
      throw new CertificateException(
          "CN=" + Certificates.commonNameOf(leaf) + " is not an input client's certificate");
    }
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    if (acceptsClients) {
      throw new CertificateException("a server of the client link dials no server");
    }
    String proved = leaves.checkServer(leaf(chain));
    String expected = engine == null ? null : engine.getPeerHost();
    if (expected == null
        || Certificates.partyOfCommonName(proved) < 0
        || !expected.equals(proved)) {
      throw new CertificateException(
          "the server proved CN=" + proved + ", not CN=" + expected + " of the server dialed");
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("the client link runs on SSLEngines only");
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    throw new CertificateException("the client link runs on SSLEngines only");
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    checkClientTrusted(chain, authType, (SSLEngine) null);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    checkServerTrusted(chain, authType, (SSLEngine) null);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return new X509Certificate[] {ca};
  }
}
