package dev.cohort.engine;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.net.Channel;
import dev.cohort.net.FramePlan;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.net.PollWindow;
import dev.cohort.net.TrafficStats;
import java.util.function.IntConsumer;

/**
 * One party's channel shared by groups of sessions that run on separate threads, each group an
 * engine of its own: every round, each running group hands in its frames, and once all have, the
 * last to arrive sends one frame per peer holding every group's part and splits the peers' frames
 * the same way. So groups use separate cores and the round structure stays one frame per peer.
 *
 * <p>Frame layout: word 0 is the mask of the groups in the round (bit g for group g), then one
 * length per group in the mask, in group order, then the parts in that order. Which groups take
 * part is the same at every party: a group runs from {@link #open} until it {@link #leave}s after
 * its last round, and groups run the same sessions everywhere, so a peer whose mask or lengths
 * differ runs something else and the round aborts naming it.
 *
 * <p>A failure of one group (its engine aborts, or the shared exchange throws) fails every group
 * waiting on the round and tells the peers once, through the shared channel.
 */
final class GroupedChannel {

  /** At most as many groups as the mask has bits. */
  static final int MAX_GROUPS = 63;

  private final Channel channel;
  private final int parties;
  private final int groups;
  private final long[][] parts; // outgoing, per group then peer: the group's frame buffers
  private final int[][] partLengths;
  private final long[][] received; // the peers' whole frames of the last round
  private final int[][] offsets; // per peer then group: where the group's part starts
  private final int[][] lengths; // per peer then group: its length
  private final long[][] outgoing;
  private final int[] outgoingLengths;
  private final IntConsumer waiting;
  private final PollWindow[] windows; // per group: how long it polls before it waits
  private long active; // mask of the groups between open and leave
  private int arrived;
  private volatile long generation; // rounds completed; read while polling
  private long exchanges;
  private volatile RuntimeException failure;
  private boolean peersTold;

  GroupedChannel(Channel channel, int groups) {
    this(channel, groups, g -> {});
  }

  /**
   * As above; {@code waiting} hears each group that has handed in its round and will wait for the
   * others (a test's event to act on, instead of watching thread states).
   */
  GroupedChannel(Channel channel, int groups, IntConsumer waiting) {
    if (groups < 1 || groups > MAX_GROUPS) {
      throw new IllegalArgumentException(
          "session groups (" + groups + ") must be between 1 and " + MAX_GROUPS);
    }
    this.channel = channel;
    this.waiting = waiting;
    this.parties = channel.parties();
    this.groups = groups;
    this.parts = new long[groups * parties][];
    this.partLengths = new int[groups][parties];
    this.received = new long[parties][];
    this.offsets = new int[parties][groups];
    this.lengths = new int[parties][groups];
    this.outgoing = new long[parties][];
    this.outgoingLengths = new int[parties];
    this.windows = new PollWindow[groups];
    for (int g = 0; g < groups; g++) {
      windows[g] = new PollWindow(InMemoryNetwork.DEFAULT_BUSY_POLL.toNanos());
    }
  }

  /** Group {@code g}'s view: a channel whose rounds are this channel's rounds. */
  Channel group(int g) {
    return new Group(g);
  }

  /** Starts a run of groups 0 to {@code count − 1}; every party must open the same groups. */
  synchronized void open(int count) {
    if (count < 1 || count > groups || active != 0) {
      throw new IllegalStateException("open " + count + " of " + groups + " groups, " + active);
    }
    active = (1L << count) - 1;
    arrived = 0;
    failure = null;
    peersTold = false;
  }

  /** Group {@code g} has run its last round; the others' rounds no longer wait for it. */
  synchronized void leave(int g) {
    active &= ~(1L << g);
    if (active != 0 && failure == null && arrived == Long.bitCount(active)) {
      exchangeAll(); // the others were only waiting for this group
    }
  }

  /** The number of rounds exchanged on the shared channel so far. */
  synchronized long exchanges() {
    return exchanges;
  }

  /** The failure that ended the run, if one did. */
  synchronized RuntimeException failure() {
    return failure;
  }

  private long[][] exchange(int g, long[][] frames, int[] frameLengths) {
    long round;
    synchronized (this) {
      if ((active & (1L << g)) == 0) {
        throw new IllegalStateException("group " + g + " is not running");
      }
      for (int p = 0; p < parties; p++) {
        parts[g * parties + p] = frames[p];
        partLengths[g][p] = frameLengths[p];
      }
      round = generation;
      arrived++;
      if (failure == null && arrived == Long.bitCount(active)) {
        exchangeAll();
      }
    }
    if (generation == round) {
      waiting.accept(g);
      awaitRound(g, round);
    }
    // The peers' frames stay as they are until every group has handed in its next round, which
    // this group does only after taking its part: copy outside the lock, groups in parallel.
    long[][] mine = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (received[p] != null) {
        mine[p] = new long[lengths[p][g]];
        System.arraycopy(received[p], offsets[p][g], mine[p], 0, lengths[p][g]);
      }
    }
    return mine;
  }

  /**
   * Waits until the round after {@code round} has been exchanged by another group: polls for a
   * while, yielding (a wake-up from a wait costs tens of microseconds on a virtual machine), then
   * waits. Throws the run's failure if one ended it first.
   */
  private void awaitRound(int g, long round) {
    PollWindow window = windows[g];
    long start = System.nanoTime();
    long until = start + window.nanos();
    while (generation == round && failure == null && until - System.nanoTime() > 0) {
      Thread.yield();
    }
    synchronized (this) {
      while (generation == round && failure == null) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          fail(new AbortException("interrupted while waiting for the other session groups"));
        }
      }
      if (generation == round) {
        throw failure;
      }
    }
    window.waited(System.nanoTime() - start);
  }

  /** The last group to arrive: one frame per peer with every part, the exchange, the split. */
  private void exchangeAll() {
    try {
      int self = channel.myId();
      for (int p = 0; p < parties; p++) {
        if (p == self) {
          continue;
        }
        long total = 1 + Long.bitCount(active);
        for (int g = 0; g < groups; g++) {
          if ((active & (1L << g)) != 0) {
            total += partLengths[g][p];
          }
        }
        if (total > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException(
              "the session groups' frames to " + PartyId.of(p) + " exceed one array: use fewer");
        }
        int words = (int) total;
        long[] frame = outgoing[p];
        if (frame == null || frame.length < words) {
          frame = new long[Math.max(words, frame == null ? 0 : frame.length * 2)];
          outgoing[p] = frame;
        }
        frame[0] = active;
        int head = 1;
        int at = 1 + Long.bitCount(active);
        for (int g = 0; g < groups; g++) {
          if ((active & (1L << g)) != 0) {
            int n = partLengths[g][p];
            frame[head++] = n;
            System.arraycopy(parts[g * parties + p], 0, frame, at, n);
            at += n;
          }
        }
        outgoingLengths[p] = words;
      }
      long[][] in = channel.exchange(outgoing, outgoingLengths);
      exchanges++;
      for (int p = 0; p < parties; p++) {
        received[p] = in[p];
        if (in[p] != null) {
          split(p, in[p]);
        }
      }
      arrived = 0;
      generation++;
      notifyAll();
    } catch (RuntimeException e) {
      fail(e);
      throw e;
    }
  }

  /** Reads peer {@code p}'s mask and lengths; a frame that does not match this round aborts. */
  private void split(int p, long[] frame) {
    int count = Long.bitCount(active);
    if (frame.length < 1 + count || frame[0] != active) {
      throw new AbortException(
          PartyId.of(p)
              + " ran other session groups in this round (mask "
              + (frame.length == 0 ? "none" : Long.toBinaryString(frame[0]))
              + ", this party "
              + Long.toBinaryString(active)
              + "): the parties are running different computations or settings");
    }
    long at = 1 + count;
    int head = 1;
    for (int g = 0; g < groups; g++) {
      if ((active & (1L << g)) != 0) {
        long n = frame[head++];
        if (n < 0 || at + n > frame.length) {
          throw new AbortException(
              PartyId.of(p) + " sent a session group's part longer than its frame");
        }
        offsets[p][g] = (int) at;
        lengths[p][g] = (int) n;
        at += n;
      }
    }
    if (at != frame.length) {
      throw new AbortException(
          PartyId.of(p)
              + " sent "
              + (frame.length - at)
              + " words beyond its session groups' parts");
    }
  }

  /** Records the run's failure (the first one) and releases every waiting group. */
  private synchronized void fail(RuntimeException e) {
    if (failure == null) {
      failure = e;
    }
    notifyAll();
  }

  /** Group {@code g} gives up: every group fails, and the peers hear it once. */
  private void abort(int g, String reason) {
    synchronized (this) {
      fail(new GroupAbort("session group " + g + " of this party failed: " + reason));
      if (peersTold) {
        return;
      }
      peersTold = true;
    }
    channel.abort(reason);
  }

  /** What the other groups of a party see when one of them gave up. */
  static final class GroupAbort extends AbortException {
    GroupAbort(String message) {
      super(message);
    }
  }

  /** One group's view of the shared channel. */
  private final class Group implements Channel {
    private final int g;
    private int rounds;

    Group(int g) {
      this.g = g;
    }

    @Override
    public int myId() {
      return channel.myId();
    }

    @Override
    public int parties() {
      return parties;
    }

    /**
     * Every group's round is one frame per peer of the shared channel, with a part for each group:
     * a group's links without a frame carry an empty part, which must come back empty.
     */
    @Override
    public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
      long[][] in = GroupedChannel.this.exchange(g, outgoing, FramePlan.everyFrame(lengths));
      return FramePlan.keepWanted(in, receive, channel.myId(), rounds++);
    }

    /** The shared channel's counters (all groups'): a run's traffic is counted by the engine. */
    @Override
    public TrafficStats stats() {
      synchronized (GroupedChannel.this) {
        return channel.stats().copy();
      }
    }

    @Override
    public void abort(String reason) {
      GroupedChannel.this.abort(g, reason);
    }

    /** The shared channel belongs to its owner: closing a group's view does nothing. */
    @Override
    public void close() {}
  }
}
