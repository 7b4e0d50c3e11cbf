package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;

/**
 * What one chunk of a BGW kernel uses alone: its scratch arrays and the pairwise generators it
 * draws from. The suite's own lane draws from the pairwise generators themselves; a lane of a split
 * kernel ({@link BgwSuite#split}) draws from its copies of them, positioned at the chunk's first
 * element, so that chunk c draws exactly the words one generator would have drawn for its elements.
 *
 * <p>Invariant: a copy's draws are exactly {@code words} words per element, or the lane is marked
 * {@link #rejected}. Rejection sampling ({@link Field#random}) draws again for the one value p
 * (odds 2^−61 per element over 2^61 − 1): then the words that follow shift, and the split kernel is
 * run again on one thread ({@link BgwReshare}), so every party draws the same shares with any
 * number of threads.
 */
final class BgwLane {

  private final BgwSuite suite;
  private final AesCtrPrg[] toSeeded; // copies, by party; null in the suite's own lane
  private final AesCtrPrg[] fromDealer;
  private final boolean[] used; // which copies drew: toSeeded at k, fromDealer at parties + k
  private long[][] scratch; // see BgwSuite.scratch
  private boolean rejected;

  /** The suite's own lane: the pairwise generators themselves. */
  BgwLane(BgwSuite suite) {
    this(suite, false);
  }

  private BgwLane(BgwSuite suite, boolean copies) {
    this.suite = suite;
    int n = suite.parties();
    this.toSeeded = copies ? new AesCtrPrg[n] : null;
    this.fromDealer = copies ? new AesCtrPrg[n] : null;
    this.used = copies ? new boolean[2 * n] : null;
  }

  /** A lane of a split kernel, with copies of the generators (positioned by {@link #start}). */
  static BgwLane copying(BgwSuite suite) {
    return new BgwLane(suite, true);
  }

  /**
   * Positions this lane's copies at element {@code from} of the generators, whose next words start
   * at {@code base} (by party, toSeeded then fromDealer); resets the marks.
   */
  void start(AesCtrPrg[] sources, long[] base, int from) {
    int n = toSeeded.length;
    long offset = (long) from * suite.field().words();
    for (int k = 0; k < 2 * n; k++) {
      AesCtrPrg[] copies = k < n ? toSeeded : fromDealer;
      AesCtrPrg source = sources[k];
      if (source != null) {
        if (copies[k % n] == null) {
          copies[k % n] = source.copyAt(base[k] + offset);
        } else {
          copies[k % n].follow(source, base[k] + offset);
        }
      }
      used[k] = false;
    }
    rejected = false;
  }

  /** The generator this party deals with to party {@code k} of T_self. */
  Prg toSeeded(int k) {
    if (toSeeded == null) {
      return suite.keys().toSeeded(k);
    }
    used[k] = true;
    return toSeeded[k];
  }

  /** The generator {@code dealer} deals with to this party. */
  Prg fromDealer(int dealer) {
    if (fromDealer == null) {
      return suite.keys().fromDealer(dealer);
    }
    used[fromDealer.length + dealer] = true;
    return fromDealer[dealer];
  }

  /**
   * {@link Field#random}, marking the lane when a copy drew more than {@code words} per element.
   */
  void random(Prg prg, long[] out, int oo, int n) {
    Field field = suite.field();
    if (toSeeded == null) {
      field.random(prg, out, oo, n);
      return;
    }
    AesCtrPrg copy = (AesCtrPrg) prg;
    long before = copy.position();
    field.random(prg, out, oo, n);
    rejected |= copy.position() - before != (long) n * field.words();
  }

  /** Whether a copy drew again for a rejected value: the kernel must run again on one thread. */
  boolean rejected() {
    return rejected;
  }

  /** Whether generator {@code k} (toSeeded by party, then fromDealer) drew in this lane. */
  boolean used(int k) {
    return used[k];
  }

  /** A reused array of at least {@code m} elements for slot {@code slot}; see BgwSuite#scratch. */
  long[] scratch(int slot, int m) {
    if (scratch == null) {
      scratch = new long[suite.threshold + 4][];
    }
    long[] s = scratch[slot];
    int need = m * suite.field().words();
    if (s == null || s.length < need) {
      s = new long[need];
      scratch[slot] = s;
    }
    return s;
  }
}
