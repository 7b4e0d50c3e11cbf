package dev.cohort.net;

/**
 * One logical channel between this party and every peer: the transport's whole interface to the
 * engine. Each call to {@link #exchange} is one round: at most one frame to each peer and from each
 * peer, in order; a round whose links carry no words may leave their frames out. Frames carry
 * 64-bit words, the unit of every field element and digest the protocols send.
 */
public interface Channel extends AutoCloseable {

  /** This party's index, 0 to {@code parties() - 1} (the same as {@code Numeric.myId()}). */
  int myId();

  int parties();

  /**
   * The length that stands for "no frame to this peer in this round" in {@link #exchange(long[][],
   * int[], boolean[])}.
   */
  int NO_FRAME = -1;

  /**
   * Sends {@code lengths[p]} words of {@code outgoing[p]} to every peer {@code p} (the entry for
   * this party is ignored) and returns the frame received from each peer (null at this party's
   * index), as fresh arrays that belong to the caller from then on: it may overwrite and keep them
   * (see {@link dev.cohort.suite.Inbox#takeWholeFrame}). The outgoing arrays are only read: the
   * caller may read them back afterwards (see {@link dev.cohort.suite.Outbox}). Throws {@link
   * dev.cohort.api.NetworkException} naming the peer when one fails, disconnects or sends nothing
   * within the timeout.
   */
  default long[][] exchange(long[][] outgoing, int[] lengths) {
    return exchange(outgoing, lengths, null);
  }

  /**
   * One round in which some links may carry no frame: no frame goes to a peer {@code p} with {@code
   * lengths[p] == }{@link #NO_FRAME}, and none is taken from a peer {@code p} with {@code
   * receive[p]} false (its entry of the result is null); {@code receive} null takes a frame from
   * every peer. Otherwise as {@link #exchange(long[][], int[])}, which is this call with a frame on
   * every link.
   *
   * <p>The parties must agree: peer {@code p} leaves out its frame to this party in a round exactly
   * when this party does not take one from {@code p} in that round. A frame that comes when none
   * was due, or a due frame that a peer left out, fails the exchange naming the peer. The channel
   * adds an empty frame to a link left without one for {@value FramePlan#MAX_SKIPPED} rounds in a
   * row, at both ends alike ({@link FramePlan}), so that no party runs more than a few rounds ahead
   * of a peer and frames cannot pile up.
   */
  long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive);

  /** What this channel has sent and received so far. */
  TrafficStats stats();

  /** Tells the peers that this party gives up, so they fail promptly instead of timing out. */
  void abort(String reason);

  @Override
  void close();
}
