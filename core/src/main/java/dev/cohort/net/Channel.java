package dev.cohort.net;

/**
 * One logical channel between this party and every peer: the transport's whole interface to the
 * engine. Each call to {@link #exchange} is one round: one frame to each peer, one frame from each
 * peer, in order. Frames carry 64-bit words, the unit of every field element and digest the
 * protocols send.
 */
public interface Channel extends AutoCloseable {

  /** This party's index, 0 to {@code parties() - 1} (the same as {@code Numeric.myId()}). */
  int myId();

  int parties();

  /**
   * Sends {@code lengths[p]} words of {@code outgoing[p]} to every peer {@code p} (the entry for
   * this party is ignored) and returns the frame received from each peer (null at this party's
   * index), as fresh arrays that belong to the caller from then on: it may overwrite and keep them
   * (see {@link dev.cohort.suite.Inbox#takeWholeFrame}). The outgoing arrays are only read: the
   * caller may read them back afterwards (see {@link dev.cohort.suite.Outbox}). Throws {@link
   * dev.cohort.api.NetworkException} naming the peer when one fails, disconnects or sends nothing
   * within the timeout.
   */
  long[][] exchange(long[][] outgoing, int[] lengths);

  /** What this channel has sent and received so far. */
  TrafficStats stats();

  /** Tells the peers that this party gives up, so they fail promptly instead of timing out. */
  void abort(String reason);

  @Override
  void close();
}
