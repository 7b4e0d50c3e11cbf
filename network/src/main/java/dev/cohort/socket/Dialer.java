package dev.cohort.socket;

import dev.cohort.api.NetworkException;
import dev.cohort.transport.Backoff;
import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.ProtocolMismatch;
import dev.cohort.transport.ProtocolMismatchException;
import dev.cohort.transport.WireFormat;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * Dials the higher peers of a socket party, one short-lived thread each, again after a failed
 * attempt with the {@link Backoff}, until the connect deadline. A peer that answers but cannot be
 * the party dialed, fails TLS, or speaks the other protocol (TLS against plain TCP: {@link
 * ProtocolMismatch}), ends connecting at once: dialing again cannot help, and the answer came from
 * the address dialed. Invariant: a dialed connection is attached only after the peer's hello passed
 * admission.
 */
final class Dialer {

  private final PeerSlots slots;
  private final Handshake handshake;
  private final Watchdog watchdog;
  private final Set<Socket> unverified; // close() ends a connect or handshake still under way

  Dialer(PeerSlots slots, Handshake handshake, Watchdog watchdog, Set<Socket> unverified) {
    this.slots = slots;
    this.handshake = handshake;
    this.watchdog = watchdog;
    this.unverified = unverified;
  }

  /** Dials {@code peer} until connected, refused for good, closed or past {@code deadline}. */
  void dialUntilConnected(int peer, long deadline) {
    Backoff backoff = new Backoff();
    try {
      while (!slots.isClosed() && !dial(peer, deadline)) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return;
        }
        Thread.sleep(Math.min(backoff.nextMillis(), left));
      }
    } catch (InterruptedException e) {
      // closed: stop dialing
    } catch (NetworkException e) {
      slots.refuse(e);
    }
  }

  /**
   * One attempt to connect to {@code peer}: true once connected, false to dial again after the
   * backoff (the reason is kept for the error); throws when the peer answered but cannot be the
   * party dialed, or failed TLS, since dialing again cannot help.
   */
  private boolean dial(int peer, long deadline) {
    InetSocketAddress address = slots.address(peer);
    Socket raw = handshake.newSocket();
    unverified.add(raw);
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> watch = null;
    long handshakeMillis = handshake.timeoutMillis();
    try {
      if (slots.isClosed()) {
        throw new IOException("the network is closed");
      }
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      try {
        raw.connect(address, (int) Math.max(1, Math.min(handshakeMillis, left)));
      } catch (SocketTimeoutException e) {
        if (left < handshakeMillis) {
          // Cut short by the connect deadline: the attempt before says more about the peer.
          PeerConnection.closeQuietly(raw);
          return false;
        }
        throw e;
      }
      watch = watchdog.watch(raw, late);
      PeerConnection connection = handshake.open(raw, address, true);
      handshake.sayHello(connection);
      InboundFrame frame = handshake.firstFrame(connection);
      if (!watch.cancel(false)) {
        throw new IOException("closed by the handshake timeout");
      }
      String refusal;
      if (frame instanceof InboundFrame.Hello hello) {
        refusal = slots.register(hello.party(), peer, Handshake.peerCertificate(connection), null);
        if (refusal == null) {
          unverified.remove(raw); // before it counts as connected: stopListening closes the rest
          slots.attach(hello.party(), connection);
          return true;
        }
      } else if (frame == null) {
        slots.lastError(peer, "closed the connection before its hello");
        PeerConnection.closeQuietly(raw);
        return false;
      } else if (frame instanceof InboundFrame.Error error
          && WireFormat.SPEAKS_TLS.equals(error.reason())) {
        PeerConnection.closeQuietly(raw);
        throw new ProtocolMismatchException(ProtocolMismatch.peerSpeaksTls(slots.name(peer)));
      } else {
        refusal = Handshake.notHello(frame);
      }
      PeerConnection.closeQuietly(raw);
      throw new NetworkException(Failures.couldNotConnect(slots.name(peer), refusal));
    } catch (PlaintextPeerException e) {
      PeerConnection.closeQuietly(raw);
      throw new ProtocolMismatchException(
          ProtocolMismatch.peerSpeaksPlaintext(slots.name(peer)), e);
    } catch (IOException e) {
      PeerConnection.closeQuietly(raw);
      if (late.get()) {
        slots.lastError(peer, handshake.timeoutReason());
      } else if (e instanceof SSLHandshakeException) {
        // A certificate problem: dialing again cannot help.
        throw new NetworkException(
            Failures.couldNotConnect(
                slots.name(peer), "TLS handshake failed: " + Failures.describe(e)),
            e);
      } else {
        slots.lastError(
            peer,
            (e instanceof SSLException ? "TLS handshake failed: " : "") + Failures.describe(e));
      }
      return false;
    } finally {
      unverified.remove(raw);
      if (watch != null) {
        watch.cancel(false);
      }
    }
  }
}
