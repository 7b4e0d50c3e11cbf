package dev.cohort.socket;

import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;

/**
 * The start of every socket connection, on either side: TCP settings, the JDK TLS 1.3 handshake
 * (both sides present certificates of the deployment's CA, and the accepting side requires the
 * dialer's), then the hellos. Reads and writes during it are bounded by the handshake timeout.
 * Invariant: no frame but a hello is read from a connection that has not been through here.
 */
final class Handshake {

  /**
   * TLS 1.3 suites, most preferred first. AES-128-GCM first, as BoringSSL (the Netty transport)
   * prefers it too: on the JDK's TLS it costs 40% less CPU than AES-256-GCM for bulk rounds (8 MB
   * frames, 3 parties, 2 cores: 8 s instead of 13 s of CPU for 1.4 GB), the JDK's default choice.
   */
  private static final String[] CIPHER_SUITES = {
    "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"
  };

  private final int self;
  private final SSLContext tls; // null: plain TCP
  private final int maxFrameBytes;
  private final long timeoutMillis;
  private final long timeoutNanos;

  Handshake(int self, SSLContext tls, int maxFrameBytes, Duration timeout) {
    this.self = self;
    this.tls = tls;
    this.maxFrameBytes = maxFrameBytes;
    this.timeoutMillis = timeout.toMillis();
    this.timeoutNanos = timeout.toNanos();
  }

  boolean isTls() {
    return tls != null;
  }

  long timeoutMillis() {
    return timeoutMillis;
  }

  /** Why a connection was closed by the handshake timeout. */
  String timeoutReason() {
    return Failures.handshakeTimeout(timeoutMillis);
  }

  /** A fresh unconnected socket to dial with (buffered under TLS). */
  Socket newSocket() {
    return tls == null ? new Socket() : new BufferedSocket();
  }

  /**
   * Wraps a connected socket, with TLS when configured, and runs the TLS handshake; {@code dialed}
   * is the address dialed, null on an accepted connection.
   */
  PeerConnection open(Socket raw, InetSocketAddress dialed, boolean client) throws IOException {
    raw.setTcpNoDelay(true);
    raw.setSoTimeout((int) timeoutMillis);
    if (tls == null) {
      return new PeerConnection(raw, raw, maxFrameBytes);
    }
    SSLSocket ssl =
        (SSLSocket)
            tls.getSocketFactory()
                .createSocket(
                    raw,
                    dialed == null ? null : dialed.getHostString(),
                    dialed == null ? raw.getPort() : dialed.getPort(),
                    true);
    SSLParameters parameters = ssl.getSSLParameters();
    parameters.setProtocols(new String[] {"TLSv1.3"});
    parameters.setCipherSuites(CIPHER_SUITES);
    parameters.setUseCipherSuitesOrder(true);
    ssl.setSSLParameters(parameters);
    ssl.setUseClientMode(client);
    if (!client) {
      ssl.setNeedClientAuth(true);
    }
    ssl.startHandshake();
    return new PeerConnection(raw, ssl, maxFrameBytes);
  }

  /** Says this party's hello. */
  void sayHello(PeerConnection connection) throws IOException {
    connection.writeNow(FrameEncoder.hello(self));
  }

  /** The peer's first frame, within the handshake timeout; null when it closed first. */
  InboundFrame firstFrame(PeerConnection connection) throws IOException {
    return connection.read(System.nanoTime() + timeoutNanos);
  }

  /**
   * Why a first frame that is not a hello refuses the connection: it broke the format or came
   * before the hello.
   */
  static String notHello(InboundFrame frame) {
    return frame instanceof InboundFrame.Error error
        ? "broke the frame format: " + error.reason()
        : "sent a frame before its hello";
  }

  /** The certificate the peer proved in the TLS handshake, null without TLS. */
  static X509Certificate peerCertificate(PeerConnection connection) {
    if (!(connection.socket instanceof SSLSocket ssl)) {
      return null;
    }
    try {
      return (X509Certificate) ssl.getSession().getPeerCertificates()[0];
    } catch (SSLPeerUnverifiedException e) {
      throw new IllegalStateException("TLS session without a peer certificate", e);
    }
  }
}
