package dev.cohort.spdz;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.field.Mersenne127;
import dev.cohort.field.Mersenne61;
import dev.cohort.parallel.Workers;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;

/**
 * One party's exchange of packed field elements with its peers: it sends this party's elements to
 * every other party, and takes, checks and sums what they sent. Every element taken from a peer is
 * checked to be canonical, in [0, p), before anything computed from it leaves the gate that took
 * it: the field kernels assume it, and a value outside the field could pass as a congruent one. A
 * peer that sends one is misbehaving, and the abort names it and the element's position (never the
 * value).
 *
 * <p>Elements are read in place in the peers' frames where they lie on the element grid, as they
 * nearly always do; otherwise they are copied into a spare buffer kept here and reused from one
 * opening to the next (one party's gates run on one thread, and nothing keeps a reference to it),
 * one per peer slot, as the shares of all peers of an opening are summed in one pass ({@link
 * PeerShares}). Nothing is allocated per element.
 */
final class ShareExchange {

  private final Field field;
  private final int words;
  private final int self;
  private final int parties;
  private final long[] modulus; // little-endian words of p
  private final long[][] spares; // see spare()
  private final Workers workers;

  /**
   * Elements per chunk below which a kernel is not split over threads: a chunk must outweigh a
   * hand-over to another thread.
   */
  static final int MIN_CHUNK = 1 << 14;

  ShareExchange(Field field, int self, int parties) {
    this(field, self, parties, Workers.INLINE);
  }

  ShareExchange(Field field, int self, int parties, Workers workers) {
    this.workers = workers;
    this.field = field;
    this.words = field.words();
    this.self = self;
    this.parties = parties;
    this.spares = new long[Math.max(1, parties - 1)][];
    this.modulus = new long[words];
    for (int w = 0; w < words; w++) {
      modulus[w] = field.modulus().shiftRight(64 * w).longValue();
    }
  }

  Field field() {
    return field;
  }

  /** The threads this party splits its large local kernels over. */
  Workers workers() {
    return workers;
  }

  /** This party's index. */
  int self() {
    return self;
  }

  int parties() {
    return parties;
  }

  /** Sends {@code count} packed elements of {@code values} to every other party. */
  void sendToAll(Outbox out, long[] values, int count) {
    int n = count * words;
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        out.write(k, values, 0, n);
      }
    }
  }

  /** Reads every other party's {@code count} elements and returns their sum with {@code own}. */
  long[] sum(Inbox in, long[] own, int count) {
    return sum(in, own, count, field.alloc(count));
  }

  /** As above, into {@code sum} (which may hold anything), and returns it. */
  long[] sum(Inbox in, long[] own, int count, long[] sum) {
    if (field instanceof Mersenne61 || field instanceof Mersenne127) {
      PeerShares peers = new PeerShares(this, in, count);
      peers.sum(own, 0, sum, 0, count);
      peers.check();
      return sum;
    }
    long[] addend = own; // the first peer's shares are added to own into sum: no copy of own
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        int at = take(in, k, count); // in place where the frame allows: no copy
        field.add(addend, 0, in.elements(), at, sum, 0, count);
        addend = sum;
      }
    }
    return sum;
  }

  /** Reads {@code count} packed elements from {@code peer} into {@code dst}, checked. */
  void read(Inbox in, int peer, long[] dst, int count) {
    int at = take(in, peer, count);
    System.arraycopy(in.elements(), at * words, dst, 0, count * words);
  }

  /**
   * Consumes {@code count} packed elements of {@code peer}'s frame and checks that each is
   * canonical. Returns their element offset in {@link Inbox#elements()} (the frame itself where
   * possible, see {@link Inbox#takeElements}).
   */
  int take(Inbox in, int peer, int count) {
    return take(in, peer, count, 0);
  }

  /**
   * As above, copying into the spare buffer of peer slot {@code slot} where the elements are not in
   * place: takes of different slots stay valid together.
   */
  int take(Inbox in, int peer, int count, int slot) {
    int off = in.takeElements(peer, count, words, spare(in, peer, count, slot));
    long[] taken = in.elements();
    if (field instanceof Mersenne61 && SpdzKernels.allCanonical61(taken, off, count)
        || field instanceof Mersenne127 && SpdzKernels.allCanonical127(taken, off, count)) {
      return off;
    }
    checkCanonical(taken, off, peer, count);
    return off;
  }

  /**
   * The spare array for {@link Inbox#takeElements} of {@code count} elements of {@code peer}: none
   * where the elements lie in place in the frame, else the buffer of peer slot {@code slot} (from
   * 0), grown as needed.
   */
  long[] spare(Inbox in, int peer, int count, int slot) {
    if (in.aligned(peer, words)) {
      return null; // not touched
    }
    if (spares[slot] == null || spares[slot].length < count * words) {
      spares[slot] = field.alloc(count);
    }
    return spares[slot];
  }

  /**
   * Throws the abort naming {@code peer} and the first of {@code count} elements from {@code off}
   * outside [0, p), if any.
   */
  void checkCanonical(long[] taken, int off, int peer, int count) {
    for (int i = 0; i < count; i++) {
      if (!canonical(taken, off + i)) {
        throw new AbortException(
            PartyId.of(peer)
                + " sent a value outside the field "
                + field.name()
                + " (element "
                + i
                + " of "
                + count
                + "); a party is misbehaving or the parties use different fields");
      }
    }
  }

  private boolean canonical(long[] a, int i) {
    for (int w = words - 1; w >= 0; w--) {
      int c = Long.compareUnsigned(a[i * words + w], modulus[w]);
      if (c != 0) {
        return c < 0;
      }
    }
    return false; // equal to p
  }
}
