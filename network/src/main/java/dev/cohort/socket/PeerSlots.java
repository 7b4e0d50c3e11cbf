package dev.cohort.socket;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.transport.Failures;
import dev.cohort.transport.PeerAdmission;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which connection belongs to which peer while a socket party connects: the {@link PeerAdmission}
 * rules applied under one lock, the slot a verified peer holds while it says its hello, the last
 * error of each missing peer (for the "did not connect" message) and the first refusal that ends
 * connecting. The party's thread waits here until every peer is attached.
 *
 * <p>Invariant: a peer's slot holds at most one connection, reserved only after every admission
 * rule passed; once closed, nothing more is attached (a late connection is closed instead).
 */
final class PeerSlots {

  private static final Logger log = LoggerFactory.getLogger(SocketNetwork.class);

  private final int self;
  private final PeerAdmission admission;

  // guarded by this
  private final PeerConnection[] peers;
  private final boolean[] reserved; // verified, saying its hello, not yet attached
  private final String[] lastError;
  private NetworkException refused;

  private volatile InetSocketAddress[] addresses;
  private volatile boolean closed;

  PeerSlots(int self, int parties, PeerAdmission admission) {
    this.self = self;
    this.admission = admission;
    this.peers = new PeerConnection[parties];
    this.reserved = new boolean[parties];
    this.lastError = new String[parties];
  }

  int parties() {
    return peers.length;
  }

  synchronized void addresses(InetSocketAddress[] addresses) {
    this.addresses = addresses;
    admission.listed(List.of(addresses), p -> peers[p] == null, (p, kept) -> lastError[p] = kept);
  }

  InetSocketAddress address(int party) {
    return addresses[party];
  }

  boolean isClosed() {
    return closed;
  }

  /** "P2 (10.0.0.2:7002)", or "P2" before the addresses are known. */
  String name(int party) {
    InetSocketAddress[] known = addresses;
    if (known == null) {
      return PartyId.of(party).toString();
    }
    InetSocketAddress a = known[party];
    return PartyId.of(party) + " (" + a.getHostString() + ":" + a.getPort() + ")";
  }

  /** Waits until every peer is attached; throws on a refusal or at the deadline. */
  synchronized PeerConnection[] awaitAll(long deadline, long timeoutMillis)
      throws InterruptedException {
    while (true) {
      if (refused != null) {
        throw refused;
      }
      int missing = firstMissing();
      if (missing < 0) {
        return peers.clone();
      }
      long left = deadline - System.nanoTime();
      if (left <= 0 || closed) {
        throw new NetworkException(
            Failures.notConnected(name(missing), timeoutMillis, lastError[missing]));
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  private int firstMissing() {
    for (int p = 0; p < peers.length; p++) {
      if (p != self && peers[p] == null) {
        return p;
      }
    }
    return -1;
  }

  /**
   * Reserves the slot of the party a hello claims; {@code dialed} is the party dialed, or -1 on an
   * accepted connection (from {@code from}). Returns why the connection is refused, or null.
   */
  synchronized String register(
      int claimed, int dialed, X509Certificate certificate, SocketAddress from) {
    String refusal =
        admission.admit(
            claimed, dialed, dialed < 0 ? null : name(dialed), certificate, this::reserve);
    if (refusal != null && dialed < 0 && admission.inRange(claimed)) {
      // Kept for the "did not connect" error: an operator sees why the party was turned away.
      lastError[claimed] = PeerAdmission.refusedFrom(from, refusal);
    }
    return refusal;
  }

  /**
   * Keeps why an accepted connection from {@code from} was refused for speaking the other protocol
   * ({@code reason}) as the last error of the party its hello claims ({@code claimed}), or, when it
   * said nothing this party can read ({@code claimed} -1), of every lower peer still missing whose
   * address is on the host it came from.
   */
  synchronized void mismatchFrom(SocketAddress from, int claimed, String reason) {
    admission.blameMismatch(
        from, claimed, reason, p -> peers[p] == null, (p, kept) -> lastError[p] = kept);
  }

  private boolean reserve(int party) {
    if (peers[party] != null || reserved[party]) {
      return false;
    }
    reserved[party] = true;
    return true;
  }

  synchronized void lastError(int peer, String error) {
    lastError[peer] = error;
  }

  /** A dialed peer cannot be the party dialed: connecting fails with {@code e}. */
  synchronized void refuse(NetworkException e) {
    if (refused == null) {
      refused = e;
    }
    notifyAll();
  }

  /** Frees a reserved slot whose hello could not be answered. */
  synchronized void release(int party, String error) {
    reserved[party] = false;
    lastError[party] = error;
  }

  synchronized void attach(int party, PeerConnection connection) {
    reserved[party] = false;
    if (closed) {
      PeerConnection.closeQuietly(connection.raw); // connect gave up meanwhile
      return;
    }
    peers[party] = connection;
    log.debug("{} connected to {}", PartyId.of(self), name(party));
    notifyAll();
  }

  /** Stops attaching; returns the connections attached so far, or null when closed already. */
  synchronized PeerConnection[] close() {
    if (closed) {
      return null;
    }
    closed = true;
    notifyAll();
    return peers.clone();
  }

  /** True once every attached connection is closed. */
  synchronized boolean allClosed() {
    for (PeerConnection peer : peers) {
      if (peer != null && !peer.raw.isClosed()) {
        return false;
      }
    }
    return true;
  }
}
