package dev.cohort.socket;

import dev.cohort.api.PartyId;
import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.ProtocolMismatch;
import dev.cohort.transport.RefusalLog;
import dev.cohort.transport.WireFormat;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepts the connections of a socket party's lower peers, on one thread, and verifies each on a
 * thread of its own, so a stranger that says nothing delays no other connection. At most {@link
 * SocketNetwork#maxVerifying} connections are verified at once; while that many are, a newcomer is
 * closed at once. Refusals are logged through a {@link RefusalLog}, so a flood of connections makes
 * a few WARN lines, not one each. A verified connection gets this party's hello only after the
 * dialer's passed admission, so a stranger learns nothing. Invariant: every accepted socket is
 * either attached to its peer's slot or closed.
 */
final class Acceptor implements Runnable {

  private static final Logger log = LoggerFactory.getLogger(SocketNetwork.class);

  private final int self;
  private final ServerSocket server;
  private final PeerSlots slots;
  private final Handshake handshake;
  private final Watchdog watchdog;
  private final ExecutorService verifiers;
  private final Set<Socket> unverified;
  private final Semaphore verifying; // a permit per accepted connection being verified
  private final RefusalLog refusals;

  Acceptor(
      int self,
      ServerSocket server,
      PeerSlots slots,
      Handshake handshake,
      Watchdog watchdog,
      ExecutorService verifiers,
      Set<Socket> unverified,
      RefusalLog refusals) {
    this.self = self;
    this.server = server;
    this.slots = slots;
    this.handshake = handshake;
    this.watchdog = watchdog;
    this.verifiers = verifiers;
    this.unverified = unverified;
    this.refusals = refusals;
    this.verifying = new Semaphore(SocketNetwork.maxVerifying(slots.parties()));
  }

  @Override
  public void run() {
    while (!slots.isClosed()) {
      Socket raw;
      try {
        raw = server.accept();
      } catch (IOException e) {
        if (!slots.isClosed() && !server.isClosed()) { // closed on purpose: the mesh is complete
          log.warn("{} stopped accepting connections: {}", PartyId.of(self), Failures.describe(e));
        }
        return;
      }
      if (!verifying.tryAcquire()) {
        refuseWhileSaturated(raw);
        continue;
      }
      try {
        verifiers.execute(
            () -> {
              try {
                accepted(raw);
              } finally {
                verifying.release();
              }
            });
      } catch (RejectedExecutionException e) {
        verifying.release();
        PeerConnection.closeQuietly(raw); // closed meanwhile
        return;
      }
    }
  }

  /** Closes a connection that arrived while every verification slot is taken. */
  private void refuseWhileSaturated(Socket raw) {
    SocketAddress from = raw.getRemoteSocketAddress();
    PeerConnection.closeQuietly(raw);
    refusals.refused(
        from,
        SocketNetwork.maxVerifying(slots.parties())
            + " connections are being verified already (each for at most "
            + handshake.timeoutMillis()
            + " ms)");
  }

  /** Verifies one accepted connection: TLS, the dialer's hello, admission, then this hello. */
  private void accepted(Socket raw) {
    unverified.add(raw);
    if (slots.isClosed()) {
      PeerConnection.closeQuietly(raw);
      unverified.remove(raw);
      return;
    }
    SocketAddress from = raw.getRemoteSocketAddress();
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> watch = null;
    boolean kept = false;
    try {
      watch = watchdog.watch(raw, late);
      PeerConnection connection = handshake.open(raw, null, false);
      InboundFrame frame = handshake.firstFrame(connection);
      String refusal;
      if (frame instanceof InboundFrame.Hello hello) {
        refusal = slots.register(hello.party(), -1, Handshake.peerCertificate(connection), from);
        if (refusal == null) {
          kept = answer(hello.party(), connection, watch);
          return;
        }
      } else if (frame == null) {
        log.debug("connection from {} ended before its hello", from);
        return;
      } else if (frame instanceof InboundFrame.Error error
          && WireFormat.SPEAKS_TLS.equals(error.reason())) {
        mismatch(from, -1, ProtocolMismatch.speaksTls());
        // This party runs in plaintext: a plaintext abort tells a TLS dialer why.
        connection.writeNow(FrameEncoder.abort(0, ProtocolMismatch.PLAINTEXT_ANSWER));
        return;
      } else {
        refusal = Handshake.notHello(frame);
      }
      refusals.refused(from, refusal);
    } catch (PlaintextPeerException e) {
      mismatch(from, e.claimed, ProtocolMismatch.speaksPlaintext());
    } catch (IOException e) {
      if (late.get()) {
        refusals.refused(from, handshake.timeoutReason());
      } else if (e instanceof SSLException) {
        refusals.refused(from, "TLS handshake failed: " + Failures.describe(e));
      } else {
        log.debug("connection from {} failed before its hello: {}", from, Failures.describe(e));
      }
    } finally {
      if (watch != null) {
        watch.cancel(false);
      }
      unverified.remove(raw);
      if (!kept) {
        PeerConnection.closeQuietly(raw);
      }
    }
  }

  /**
   * An accepted connection opened in the other protocol (TLS against plain TCP): logged, and kept
   * for the "did not connect" error of the peer it claims to be, or that its host is the address of
   * ({@link PeerSlots#mismatchFrom}). It does not end connecting: the bytes are unauthenticated,
   * and a stranger must not make this party give up on a real peer. Its dialer, if it is a peer,
   * has failed at once on this party's answer.
   */
  private void mismatch(SocketAddress from, int claimed, String reason) {
    refusals.refused(from, reason);
    slots.mismatchFrom(from, claimed, reason);
  }

  /** Says this party's hello on a verified connection, then hands it to the peer's slot. */
  private boolean answer(int party, PeerConnection connection, ScheduledFuture<?> watch) {
    try {
      handshake.sayHello(connection);
    } catch (IOException e) {
      slots.release(party, Failures.describe(e));
      return false;
    }
    if (!watch.cancel(false)) {
      slots.release(party, handshake.timeoutReason());
      return false;
    }
    unverified.remove(
        connection.raw); // before it counts as connected: stopListening closes the rest
    slots.attach(party, connection);
    return true;
  }
}
