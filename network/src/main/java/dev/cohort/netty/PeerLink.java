package dev.cohort.netty;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.netty.codec.InboundFrame;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * This party's end of the connection to one peer: the hand-off from Netty's event loop, which
 * {@link #deliver}s frames and failures in arrival order, to the party's thread, which {@link
 * #take}s them one round at a time. Once the party thread has seen a failure, every later take
 * fails the same way.
 */
final class PeerLink {

  private static final Object CLOSED = new Object();

  private record Failure(String reason) {}

  final int peer;

  /** Completed on the event loop once the peer's hello has been verified. */
  final CompletableFuture<Void> ready = new CompletableFuture<>();

  private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
  private volatile io.netty.channel.Channel channel;
  private volatile InetSocketAddress address;
  private volatile String lastError;
  private String failure; // party thread only

  PeerLink(int peer) {
    this.peer = peer;
  }

  /** "P2 (10.0.0.2:7002)", or "P2" before the address is known. */
  String name() {
    InetSocketAddress a = address;
    return a == null
        ? PartyId.of(peer).toString()
        : PartyId.of(peer) + " (" + a.getHostString() + ":" + a.getPort() + ")";
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
  }

  void fail(String reason) {
    inbox.add(new Failure(reason));
  }

  void closed() {
    inbox.add(CLOSED);
  }

  // Party thread side.

  /** The peer's frame for {@code round}, waiting at most {@code timeout}. */
  InboundFrame.Data take(long round, Duration timeout) {
    if (failure != null) {
      throw new NetworkException(failure);
    }
    Object item;
    try {
      item = inbox.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NetworkException("interrupted while waiting for " + name() + " in round " + round);
    }
    if (item instanceof InboundFrame.Data data) {
      return data;
    }
    if (item == null) {
      throw new NetworkException(
          name() + " sent nothing for round " + round + " within " + timeout.toMillis() + " ms");
    }
    failure =
        item == CLOSED
            ? name() + " closed its connection before round " + round
            : name() + " " + ((Failure) item).reason();
    throw new NetworkException(failure);
  }
}
