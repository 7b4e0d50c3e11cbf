package dev.cohort.transport;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.api.PeerAbortedException;
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
  private final PauseWatch pauses;
  private final long peersWaitMillis;
  private final long windowMillis;
  private boolean closed;

  /**
   * Pauses shorter than this are never blamed for a failure: a busy machine delays threads by
   * seconds, and peers wait longer than that (15 s of silence by default).
   */
  public static final long MIN_PAUSE_MILLIS = 5000;

  /** Frames and bytes to and from each peer, whole frames before TLS. */
  protected final TrafficStats stats;

  /** The channel of {@code network}'s party, connected to its {@code parties - 1} peers. */
  protected TransportChannel(TransportNetwork network, TransportOptions options) {
    this.network = network;
    this.self = network.myId();
    this.parties = network.parties();
    this.maxFrameBytes = options.maxFrameBytes();
    this.pauses = PauseWatch.shared();
    long idle = options.idleTimeout().toMillis();
    long receive = options.receiveTimeout().toMillis();
    this.peersWaitMillis = Math.max(MIN_PAUSE_MILLIS, Math.min(idle, receive));
    this.windowMillis = idle + receive;
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

  /**
   * The failure of a peer as this party words it ({@code failure} names the peer), or, when this
   * party itself did not run for longer than its peers wait for it (the shorter of the idle and
   * receive timeouts, and at least {@link #MIN_PAUSE_MILLIS}) shortly before, a message that says
   * so first ({@link PauseWatch}): then the peer most likely gave up on this party, not the
   * reverse. Only on the path of a failure.
   */
  /**
   * The exception of a recorded failure: {@link PeerAbortedException} when it was the peer's abort
   * frame, so that callers can tell a peer that gave up from one that vanished.
   */
  protected static NetworkException failureException(String failure, boolean aborted) {
    return aborted ? new PeerAbortedException(failure) : new NetworkException(failure);
  }

  protected final String explain(String failure) {
    return pauses.explain(failure, peersWaitMillis, windowMillis);
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
