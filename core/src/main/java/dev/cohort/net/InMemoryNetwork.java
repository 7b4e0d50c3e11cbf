package dev.cohort.net;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.api.PeerAbortedException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Parties as threads in one JVM: one unbounded queue per ordered pair of parties. It implements the
 * same {@link Channel} contract as the Netty transport (one frame per peer per round, prompt
 * failure when a peer aborts, a receive timeout naming the peer), so tests of protocols need no
 * sockets. Byte counts are payload bytes (8 per word); there is no framing on this transport.
 */
public final class InMemoryNetwork {

  private static final Object CLOSED = new Object();

  private final int parties;
  private final Duration timeout;
  private final BlockingQueue<Object>[][] queues; // queues[from][to]

  @SuppressWarnings("unchecked")
  public InMemoryNetwork(int parties, Duration timeout) {
    if (parties < 1) {
      throw new IllegalArgumentException("parties (" + parties + ") must be >= 1");
    }
    this.parties = parties;
    this.timeout = timeout;
    this.queues = new BlockingQueue[parties][parties];
    for (int from = 0; from < parties; from++) {
      for (int to = 0; to < parties; to++) {
        if (from != to) {
          queues[from][to] = new LinkedBlockingQueue<>();
        }
      }
    }
  }

  public int parties() {
    return parties;
  }

  /** The channel of {@code party}; call once per party. */
  public Channel channel(int party) {
    if (party < 0 || party >= parties) {
      throw new IllegalArgumentException(
          "party index (" + party + ") must be in [0, " + parties + ")");
    }
    return new InMemoryChannel(party);
  }

  private static final class Aborted {
    final String reason;

    Aborted(String reason) {
      this.reason = reason;
    }
  }

  private final class InMemoryChannel implements Channel {
    private final int self;
    private final TrafficStats stats = new TrafficStats(parties);
    private int round;
    private boolean closed;

    InMemoryChannel(int self) {
      this.self = self;
    }

    @Override
    public int myId() {
      return self;
    }

    @Override
    public int parties() {
      return parties;
    }

    @Override
    public long[][] exchange(long[][] outgoing, int[] lengths) {
      if (closed) {
        throw new IllegalStateException(PartyId.of(self) + "'s channel is closed");
      }
      for (int p = 0; p < parties; p++) {
        if (p != self) {
          long[] frame = new long[lengths[p]];
          System.arraycopy(outgoing[p], 0, frame, 0, lengths[p]);
          queues[self][p].add(frame);
          stats.sent(p, 8L * frame.length);
        }
      }
      long[][] incoming = new long[parties][];
      for (int p = 0; p < parties; p++) {
        if (p != self) {
          long[] frame = take(p);
          incoming[p] = frame;
          stats.received(p, 8L * frame.length);
        }
      }
      round++;
      return incoming;
    }

    private long[] take(int peer) {
      Object item;
      try {
        item = queues[peer][self].poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NetworkException(
            PartyId.of(self) + " was interrupted while waiting for " + PartyId.of(peer));
      }
      if (item == null) {
        throw new NetworkException(
            PartyId.of(peer)
                + " sent nothing for round "
                + round
                + " within "
                + timeout.toMillis()
                + " ms");
      }
      if (item == CLOSED) {
        throw new NetworkException(
            PartyId.of(peer) + " closed its connection before round " + round);
      }
      if (item instanceof Aborted aborted) {
        throw new PeerAbortedException(
            PartyId.of(peer) + " aborted in round " + round + ": " + aborted.reason);
      }
      return (long[]) item;
    }

    @Override
    public TrafficStats stats() {
      return stats;
    }

    @Override
    public void abort(String reason) {
      if (!closed) {
        closed = true;
        for (int p = 0; p < parties; p++) {
          if (p != self) {
            queues[self][p].add(new Aborted(reason));
          }
        }
      }
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        for (int p = 0; p < parties; p++) {
          if (p != self) {
            queues[self][p].add(CLOSED);
          }
        }
      }
    }
  }
}
