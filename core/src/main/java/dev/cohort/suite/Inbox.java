package dev.cohort.suite;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;

/**
 * The frames one party received from its peers in one round, read in the order the gates of the
 * round wrote them. Reading past the end of a frame, or leaving words unread, means the peer ran a
 * different protocol: an {@link AbortException} naming the peer.
 */
public final class Inbox {

  private final long[][] frames;
  private final int[] ends; // a frame's words are frames[p][0, ends[p])
  private boolean owned; // the frames are fresh arrays of this party's, not a sender's buffers
  private final int[] positions;
  private int round;
  private long[] elements; // see takeElements

  public Inbox(int parties) {
    this.frames = new long[parties][];
    this.ends = new int[parties];
    this.positions = new int[parties];
  }

  /** Installs the frames of a new round, each a whole array (null at this party's index). */
  public void reset(int round, long[][] received) {
    this.round = round;
    this.owned = true;
    for (int p = 0; p < frames.length; p++) {
      frames[p] = received[p];
      ends[p] = received[p] == null ? 0 : received[p].length;
      positions[p] = 0;
    }
  }

  /**
   * Installs the frames of a new round, peer {@code p}'s being the first {@code lengths[p]} words
   * of {@code received[p]}: a frame handed over in the sender's own buffer, without a copy (a
   * lock-step harness; the arrays must not change until the round has been read).
   */
  public void reset(int round, long[][] received, int[] lengths) {
    this.round = round;
    this.owned = false; // the senders' buffers: read only, never handed out whole
    for (int p = 0; p < frames.length; p++) {
      if (received[p] != null && (lengths[p] < 0 || lengths[p] > received[p].length)) {
        throw new IllegalArgumentException(
            "frame of P" + p + ": " + lengths[p] + " words of " + received[p].length);
      }
      frames[p] = received[p];
      ends[p] = received[p] == null ? 0 : lengths[p];
      positions[p] = 0;
    }
  }

  /** Reads {@code n} words from {@code peer}'s frame into {@code dst}. */
  public void read(int peer, long[] dst, int off, int n) {
    int at = advance(peer, n);
    System.arraycopy(frames[peer], at, dst, off, n);
  }

  /**
   * Consumes {@code count} packed elements of {@code words} words each from {@code peer}'s frame
   * and returns the element offset at which they lie in {@link #elements()}: the frame itself (no
   * copy) when they start on an element boundary of it, else {@code spare} (at least {@code count}
   * elements; may be null where {@link #aligned}), into which they are copied. For kernels that
   * take element offsets; valid until the next round or the next call.
   */
  public int takeElements(int peer, int count, int words, long[] spare) {
    int at = advance(peer, count * words);
    if (at % words == 0) {
      elements = frames[peer];
      return at / words;
    }
    System.arraycopy(frames[peer], at, spare, 0, count * words);
    elements = spare;
    return 0;
  }

  /**
   * Whether the next words of {@code peer}'s frame start on a boundary of elements of {@code words}
   * words: then {@link #takeElements} returns them in place and never touches its spare array.
   */
  public boolean aligned(int peer, int words) {
    return positions[peer] % words == 0;
  }

  /**
   * Consumes {@code peer}'s whole frame when it is exactly the next {@code n} words (nothing read
   * from it yet, nothing after them) and returns the frame's array itself, which then belongs to
   * the caller: it may overwrite it and keep it, for instance as the result column of a gate whose
   * message is alone in its frame, instead of allocating and zeroing a column and adding the
   * message into it. Returns null, consuming nothing, otherwise, and always for frames installed
   * with their lengths (a sender's own buffers, which are not this party's to change). A transport
   * hands each round fresh arrays ({@link dev.cohort.net.Channel#exchange}), so nothing else sees
   * the frame change.
   */
  public long[] takeWholeFrame(int peer, int n) {
    long[] frame = frames[peer];
    if (!owned || frame == null || positions[peer] != 0 || frame.length != n) {
      return null;
    }
    positions[peer] = n;
    return frame;
  }

  /** The array holding the elements of the last {@link #takeElements}. */
  public long[] elements() {
    return elements;
  }

  /** Reads one word from {@code peer}'s frame. */
  public long read(int peer) {
    return frames[peer][advance(peer, 1)];
  }

  private int advance(int peer, int n) {
    long[] frame = frames[peer];
    int at = positions[peer];
    if (frame == null || at + n > ends[peer]) {
      throw new AbortException(
          PartyId.of(peer)
              + " sent a short message in round "
              + round
              + ": the parties are running different computations or versions");
    }
    positions[peer] = at + n;
    return at;
  }

  /** Checks that every frame was read to its end. */
  public void checkFullyRead() {
    for (int p = 0; p < frames.length; p++) {
      if (frames[p] != null && positions[p] != ends[p]) {
        throw new AbortException(
            PartyId.of(p)
                + " sent "
                + (ends[p] - positions[p])
                + " unexpected words in round "
                + round
                + ": the parties are running different computations or versions");
      }
    }
  }
}
