package dev.cohort.socket;

import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.ProtocolMismatch;
import dev.cohort.transport.tls.JdkTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
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
   * is the address dialed, null on an accepted connection. Throws {@link PlaintextPeerException}
   * when the peer speaks plain TCP where this party speaks TLS: an accepted connection that opens
   * with a plaintext Cohort frame gets a TLS alert (so that its dialer learns why) and no TLS
   * handshake; a dialed one is recognised by the peer's answer once the handshake failed.
   */
  PeerConnection open(Socket raw, InetSocketAddress dialed, boolean client) throws IOException {
    raw.setTcpNoDelay(true);
    raw.setSoTimeout((int) timeoutMillis);
    if (tls == null) {
      return new PeerConnection(raw, raw, maxFrameBytes);
    }
    if (!client && raw instanceof BufferedSocket buffered) {
      refusePlaintext(buffered);
    }
    SSLSocket ssl;
    try {
      ssl = JdkTls.handshake(tls, raw, dialed, client);
    } catch (SSLException e) {
      byte[] answer = raw instanceof BufferedSocket buffered ? buffered.firstBytes() : new byte[0];
      if (client && ProtocolMismatch.isPlaintextFrame(answer, answer.length)) {
        throw new PlaintextPeerException(-1, e);
      }
      throw e;
    }
    return new PeerConnection(raw, ssl, maxFrameBytes);
  }

  /** Answers a connection that opens with a plaintext Cohort frame with a TLS alert, and throws. */
  private static void refusePlaintext(BufferedSocket raw) throws IOException {
    byte[] head = raw.peek();
    if (ProtocolMismatch.isPlaintextFrame(head, head.length)) {
      raw.getOutputStream().write(ProtocolMismatch.tlsAlert());
      raw.getOutputStream().flush();
      throw new PlaintextPeerException(ProtocolMismatch.claimedParty(head, head.length), null);
    }
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
