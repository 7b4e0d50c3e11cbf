package dev.cohort.socket;

import dev.cohort.api.PartyId;
import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
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
 * closed at once with a log line (once at WARN, then at DEBUG until a slot is free). A verified
 * connection gets this party's hello only after the dialer's passed admission, so a stranger learns
 * nothing. Invariant: every accepted socket is either attached to its peer's slot or closed.
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
  private boolean saturated; // acceptor thread only: refusing newcomers, logged once

  Acceptor(
      int self,
      ServerSocket server,
      PeerSlots slots,
      Handshake handshake,
      Watchdog watchdog,
      ExecutorService verifiers,
      Set<Socket> unverified) {
    this.self = self;
    this.server = server;
    this.slots = slots;
    this.handshake = handshake;
    this.watchdog = watchdog;
    this.verifiers = verifiers;
    this.unverified = unverified;
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
      saturated = false;
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
    int max = SocketNetwork.maxVerifying(slots.parties());
    if (!saturated) {
      saturated = true;
      log.warn(
          "refused a connection from {}: {} connections are being verified already (each for at"
              + " most {} ms); further refusals are logged at DEBUG until a slot is free",
          from,
          max,
          handshake.timeoutMillis());
    } else {
      log.debug(
          "refused a connection from {}: {} connections are being verified already", from, max);
    }
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
      } else {
        refusal = Handshake.notHello(frame);
      }
      log.warn("refused a connection from {}: {}", from, refusal);
    } catch (IOException e) {
      if (late.get()) {
        log.warn("closing a connection from {}: {}", from, handshake.timeoutReason());
      } else if (e instanceof SSLException) {
        log.warn(
            "refused a connection from {}: TLS handshake failed: {}", from, Failures.describe(e));
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
