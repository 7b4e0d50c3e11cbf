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
 * same {@link Channel} contract as the Netty transport (at most one frame per peer per round,
 * prompt failure when a peer aborts, a receive timeout naming the peer), so tests of protocols need
 * no sockets. Byte counts are payload bytes (8 per word); there is no framing on this transport.
 */
public final class InMemoryNetwork {

  /**
   * How long a party looks for a missing frame (yielding between looks) before it blocks: on a
   * virtual machine a blocked thread's wake-up costs tens of microseconds, which made a round of
   * three parties in memory cost 34 us blocking at once against 4 us looking first.
   */
  public static final Duration DEFAULT_BUSY_POLL = Duration.ofNanos(100_000);

  private static final Object CLOSED = new Object();

  private final int parties;
  private final Duration timeout;
  private final BlockingQueue<Object>[][] queues; // queues[from][to]
  private final long busyPollNanos;

  /**
   * {@code parties} parties whose receives fail after {@code timeout}, looking for a missing frame
   * for up to {@link #DEFAULT_BUSY_POLL} before they block.
   */
  public InMemoryNetwork(int parties, Duration timeout) {
    this(parties, timeout, DEFAULT_BUSY_POLL);
  }

  /**
   * As {@link #InMemoryNetwork(int, Duration)}, a party looking for a missing frame for up to
   * {@code busyPoll} ({@link PollWindow}; zero: it blocks at once).
   */
  @SuppressWarnings("unchecked")
  public InMemoryNetwork(int parties, Duration timeout, Duration busyPoll) {
    if (busyPoll.isNegative()) {
      throw new IllegalArgumentException("busy poll (" + busyPoll + ") must be zero or positive");
    }
    this.busyPollNanos = busyPoll.toNanos();
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

  /** A data frame of {@code round}. */
  private record Frame(int round, long[] words) {}

  private static final class Aborted {
    final String reason;

    Aborted(String reason) {
      this.reason = reason;
    }
  }

  private final class InMemoryChannel implements Channel {
    private final int self;
    private final TrafficStats stats = new TrafficStats(parties);
    private final PollWindow window = new PollWindow(busyPollNanos);
    private final FramePlan plan;
    private int round;
    private boolean closed;

    InMemoryChannel(int self) {
      this.self = self;
      this.plan = new FramePlan(self, parties);
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
    public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
      if (closed) {
        throw new IllegalStateException(PartyId.of(self) + "'s channel is closed");
      }
      plan.next(lengths, receive);
      for (int p = 0; p < parties; p++) {
        if (p != self && plan.sends(p)) {
          long[] words = new long[FramePlan.words(lengths, p)];
          System.arraycopy(outgoing[p], 0, words, 0, words.length);
          queues[self][p].add(new Frame(round, words));
          stats.sent(p, 8L * words.length);
        }
      }
      long[][] incoming = new long[parties][];
      for (int p = 0; p < parties; p++) {
        if (p != self && plan.takes(p)) {
          long[] words = take(p);
          stats.received(p, 8L * words.length);
          incoming[p] = plan.deliver(p, words);
        }
      }
      round++;
      return incoming;
    }

    private long[] take(int peer) {
      Object item = queues[peer][self].poll();
      try {
        if (item == null) {
          item = await(queues[peer][self]);
        }
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
      Frame frame = (Frame) item;
      String refusal = plan.refusal(peer, frame.round, round, frame.words.length);
      if (refusal != null) {
        throw new NetworkException(PartyId.of(peer) + refusal);
      }
      return frame.words;
    }

    /**
     * Looks at {@code queue} for up to the poll window, yielding the processor between looks, then
     * blocks for the receive timeout; null when nothing came.
     */
    private Object await(BlockingQueue<Object> queue) throws InterruptedException {
      long start = System.nanoTime();
      try {
        long until = start + window.nanos();
        while (until - System.nanoTime() > 0) {
          Thread.yield();
          Object item = queue.poll();
          if (item != null) {
            return item;
          }
        }
        return queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } finally {
        window.waited(System.nanoTime() - start);
      }
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
