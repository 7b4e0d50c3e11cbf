package dev.cohort.net;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;

/**
 * Which links of a party's rounds carry a frame ({@link Channel#exchange(long[][], int[],
 * boolean[])}), decided alike at both ends of every link. A round may leave out the frame of a link
 * that carries no words (an opening to one party, a dealing whose shares the receiver draws from a
 * seed), but a link left without a frame for {@value #MAX_SKIPPED} rounds in a row carries one,
 * empty, in the next. Each party thus waits for every peer at least once in every {@value
 * #MAX_SKIPPED} + 1 rounds: an honest peer is at most that many rounds ahead, and at most {@value
 * #MAX_SKIPPED} + 2 of its frames ever wait at this party, as with a frame on every link (at most
 * two) give or take the skipped rounds.
 *
 * <p>Both ends count the same rounds because the callers' choices agree: a party leaves out its
 * frame to a peer exactly when that peer takes none from it. A frame the plan added must be empty;
 * one with words fails the round naming its sender ({@link #refusal}).
 *
 * <p>Not thread-safe: one per channel, used by the party's thread.
 */
public final class FramePlan {

  /** Rounds in a row a link may go without a frame; the next one carries one, empty if need be. */
  public static final int MAX_SKIPPED = 2;

  private static final String DIFFERENT =
      ": the parties are running different computations or versions";

  private final int self;
  private final int[] quietOut; // rounds in a row without a frame to each peer
  private final int[] quietIn; // ... and from each peer
  private final boolean[] sends;
  private final boolean[] takes;
  private final boolean[] wanted;

  /** The plan of party {@code self} of {@code parties}, before its first round. */
  public FramePlan(int self, int parties) {
    this.self = self;
    this.quietOut = new int[parties];
    this.quietIn = new int[parties];
    this.sends = new boolean[parties];
    this.takes = new boolean[parties];
    this.wanted = new boolean[parties];
  }

  /**
   * Plans the next round from the caller's {@code lengths} ({@link Channel#NO_FRAME}: no frame) and
   * {@code receive} (null: a frame from every peer).
   */
  public void next(int[] lengths, boolean[] receive) {
    for (int p = 0; p < sends.length; p++) {
      if (p == self) {
        continue;
      }
      sends[p] = lengths[p] != Channel.NO_FRAME || quietOut[p] == MAX_SKIPPED;
      quietOut[p] = sends[p] ? 0 : quietOut[p] + 1;
      wanted[p] = receive == null || receive[p];
      takes[p] = wanted[p] || quietIn[p] == MAX_SKIPPED;
      quietIn[p] = takes[p] ? 0 : quietIn[p] + 1;
    }
  }

  /** Whether this round sends a frame to {@code peer}. */
  public boolean sends(int peer) {
    return sends[peer];
  }

  /** Words of this round's frame to {@code peer}: none in a frame the plan added. */
  public static int words(int[] lengths, int peer) {
    return Math.max(0, lengths[peer]);
  }

  /** Whether this round takes a frame from {@code peer}. */
  public boolean takes(int peer) {
    return takes[peer];
  }

  /**
   * Why the data frame of round {@code got} with {@code words} words, taken from {@code peer} when
   * its frame of round {@code due} was, is refused, as words to follow the peer's name; null when
   * it is this round's. A frame that is not the round's means the peer sent one in a round in which
   * this party expected none, or left out one it expected; a frame the plan added must be empty.
   */
  public String refusal(int peer, int got, int due, int words) {
    if (got != due) {
      return got < due
          ? " sent a frame for round "
              + got
              + ", in which this party expected none from it"
              + DIFFERENT
          : " sent no frame for round " + due + " (its next is for round " + got + ")" + DIFFERENT;
    }
    if (!wanted[peer] && words > 0) {
      return extraWords(words, due);
    }
    return null;
  }

  /**
   * The frame {@code words} of {@code peer}, once taken, as the caller gets it: null if unasked.
   */
  public long[] deliver(int peer, long[] words) {
    return wanted[peer] ? words : null;
  }

  /**
   * For channels that send every frame ({@code lengths} with {@link Channel#NO_FRAME} as 0): the
   * lengths of such a round.
   */
  public static int[] everyFrame(int[] lengths) {
    int[] all = lengths.clone();
    for (int p = 0; p < all.length; p++) {
      all[p] = words(lengths, p);
    }
    return all;
  }

  /**
   * For channels that send every frame: drops ({@code null}) the frames of the peers {@code
   * receive} takes none from, each of which must be empty, and returns {@code received}.
   */
  public static long[][] keepWanted(long[][] received, boolean[] receive, int self, int round) {
    if (receive == null) {
      return received;
    }
    for (int p = 0; p < received.length; p++) {
      if (p != self && !receive[p]) {
        received[p] = unwanted(p, received[p], round);
      }
    }
    return received;
  }

  private static long[] unwanted(int peer, long[] words, int round) {
    if (words != null && words.length > 0) {
      throw new AbortException(PartyId.of(peer) + extraWords(words.length, round));
    }
    return null;
  }

  private static String extraWords(int words, int round) {
    return " sent "
        + words
        + " words in round "
        + round
        + ", in which this party expected none"
        + " from it"
        + DIFFERENT;
  }
}
