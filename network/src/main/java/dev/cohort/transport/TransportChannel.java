package dev.cohort.transport;

import dev.cohort.api.PartyId;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import java.net.InetSocketAddress;

/**
 * What the {@link Channel} of every transport shares: the party it belongs to, the number of
 * parties, the traffic counts, and the checks a round passes before any of its frames leaves.
 * Invariant: a round whose frames fail {@link #checkRound} sends nothing, so a caller's mistake
 * never leaves a round half sent.
 */
public abstract class TransportChannel implements Channel {

  private final TransportNetwork network;
  private final int self;
  private final int parties;
  private final int maxFrameBytes;
  private boolean closed;

  /** Frames and bytes to and from each peer, whole frames before TLS. */
  protected final TrafficStats stats;

  /** The channel of {@code network}'s party, connected to its {@code parties - 1} peers. */
  protected TransportChannel(TransportNetwork network, TransportOptions options) {
    this.network = network;
    this.self = network.myId();
    this.parties = network.parties();
    this.maxFrameBytes = options.maxFrameBytes();
    this.stats = new TrafficStats(network.parties());
  }

  @Override
  public final int myId() {
    return self;
  }

  @Override
  public final int parties() {
    return parties;
  }

  @Override
  public final TrafficStats stats() {
    return stats;
  }

  /** Where this party listens. */
  public final InetSocketAddress localAddress() {
    return network.localAddress();
  }

  /**
   * Refuses a round on a closed channel, then checks its frames ({@link WireFormat#checkRound}),
   * all before any frame leaves: a round is all or none.
   */
  protected final void checkRound(long[][] outgoing, int[] lengths) {
    if (closed) {
      throw new IllegalStateException(PartyId.of(self) + "'s channel is closed");
    }
    WireFormat.checkRound(outgoing, lengths, parties, self, maxFrameBytes);
  }

  /** Sends every peer an abort frame naming {@code reason}, then closes. */
  @Override
  public final void abort(String reason) {
    if (closed) {
      return;
    }
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        sendAbort(p, reason);
      }
    }
    closed = true;
    closeAfterAbort();
  }

  @Override
  public final void close() {
    if (!closed) {
      closed = true;
      closeNetwork();
    }
  }

  /** Sends {@code peer} an abort frame naming {@code reason}, if its connection still takes one. */
  protected abstract void sendAbort(int peer, String reason);

  /** Closes the network once this party aborted. */
  protected abstract void closeAfterAbort();

  /** Closes the network when the channel is closed. */
  protected abstract void closeNetwork();
}
