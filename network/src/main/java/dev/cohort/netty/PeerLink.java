package dev.cohort.netty;

import dev.cohort.api.PartyId;
import dev.cohort.net.FramePlan;
import dev.cohort.transport.InboundFrame;
import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * This party's end of the connection to one peer: the hand-off from Netty's event loop, which
 * {@link #deliver}s frames and failures in arrival order, to the party's thread, which takes them
 * one round at a time through {@link NettyTransport}. The {@link Arrivals} shared by all links of a
 * party decide when the party thread wakes up.
 *
 * <p>Invariant: at most about {@link #MAX_QUEUED_ROUNDS} data frames wait in the inbox. An honest
 * peer is never more than {@link FramePlan#MAX_SKIPPED} + 1 rounds ahead (it waits for this party
 * at least once in that many rounds), so at most {@link FramePlan#MAX_SKIPPED} + 2 of its frames
 * ever wait; a peer further ahead is hostile or broken, and once that many of its frames wait the
 * connection stops reading (auto-read off) until the party thread has taken them. What it sends
 * meanwhile waits in TCP's buffers and then in the peer's, not in this party's heap.
 */
final class PeerLink {

  static final Object CLOSED = new Object();

  /** Data frames of a peer queued at which this party stops reading the peer's connection. */
  static final int MAX_QUEUED_ROUNDS = FramePlan.MAX_SKIPPED + 2;

  /** A failure of the link; {@code aborted} when it was the peer's abort frame. */
  record Failure(String reason, boolean aborted) {}

  final int peer;

  /** Completed on the event loop once the peer's hello has been verified. */
  final CompletableFuture<Void> ready = new CompletableFuture<>();

  private final Queue<Object> inbox = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger(); // data frames in the inbox
  private final AtomicBoolean awaited = new AtomicBoolean();
  private final Arrivals arrivals;
  private volatile io.netty.channel.Channel channel;
  private volatile InetSocketAddress address;
  private volatile String lastError;

  PeerLink(int peer, Arrivals arrivals) {
    this.peer = peer;
    this.arrivals = arrivals;
  }

  /** "P2 (10.0.0.2:7002)", or "P2" before the address is known. */
  String name() {
    InetSocketAddress a = address;
    return a == null
        ? PartyId.of(peer).toString()
        : PartyId.of(peer) + " (" + a.getHostString() + ":" + a.getPort() + ")";
  }

  InetSocketAddress address() {
    return address;
  }

  void address(InetSocketAddress address) {
    this.address = address;
  }

  io.netty.channel.Channel channel() {
    return channel;
  }

  /** Attaches the verified connection; false when this peer is connected already. */
  boolean attach(io.netty.channel.Channel channel) {
    if (this.channel != null) {
      return false;
    }
    this.channel = channel;
    ready.complete(null);
    return true;
  }

  String lastError() {
    return lastError;
  }

  void lastError(String error) {
    lastError = error;
  }

  // Event loop side.

  void deliver(InboundFrame.Data frame) {
    inbox.add(frame);
    if (queued.incrementAndGet() >= MAX_QUEUED_ROUNDS) {
      channel.config().setAutoRead(false); // the read under way ends with this buffer
    }
    if (awaited.compareAndSet(true, false)) {
      arrivals.countDown();
    }
  }

  void fail(String reason) {
    inbox.add(new Failure(reason, false));
    arrivals.raiseAlarm();
  }

  /** The peer sent its abort frame. */
  void aborted(String reason) {
    inbox.add(new Failure(reason, true));
    arrivals.raiseAlarm();
  }

  void closed() {
    inbox.add(CLOSED);
    arrivals.raiseAlarm();
  }

  /** Reads the peer's connection again once the party thread has taken enough of its frames. */
  private void resumeIfTaken() {
    if (queued.get() < MAX_QUEUED_ROUNDS && !channel.config().isAutoRead()) {
      channel.config().setAutoRead(true);
    }
  }

  /** Data frames of this peer waiting for the party thread. */
  int queued() {
    return queued.get();
  }

  // Party thread side.

  /** The next item (a frame, {@link Failure} or {@link #CLOSED}), or null when none is queued. */
  Object poll() {
    Object item = inbox.poll();
    if (item instanceof InboundFrame.Data && queued.decrementAndGet() == MAX_QUEUED_ROUNDS - 1) {
      // Decided on the event loop, where the reads were paused: never paused with nothing queued.
      try {
        channel.eventLoop().execute(this::resumeIfTaken);
      } catch (RejectedExecutionException e) {
        // the network is closed: nothing is read any more
      }
    }
    return item;
  }

  /** Marks this link as awaited for the round. */
  void await() {
    awaited.set(true);
  }

  /**
   * After {@link Arrivals#expect}: counts a frame that arrived meanwhile; true if there was one.
   */
  boolean claimIfArrived() {
    if (!inbox.isEmpty() && awaited.compareAndSet(true, false)) {
      arrivals.countDown();
      return true;
    }
    return false;
  }

  /** Clears the awaited mark after a timeout or failure, so a late frame counts nothing. */
  void forget() {
    awaited.set(false);
  }
}
