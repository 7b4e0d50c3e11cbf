package dev.cohort.socket;

import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.tls.JdkTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * The start of every socket connection, on either side: TCP settings, the JDK TLS 1.3 handshake
 * ({@link JdkTls}: both sides present certificates of the deployment's CA, and the accepting side
 * requires the dialer's), then the hellos. Reads and writes during it are bounded by the handshake
 * timeout. Invariant: no frame but a hello is read from a connection that has not been through
 * here.
 */
final class Handshake {

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
    SSLSocket ssl = JdkTls.handshake(tls, raw, dialed, client);
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
    return JdkTls.peerCertificate(connection.socket);
  }
}
