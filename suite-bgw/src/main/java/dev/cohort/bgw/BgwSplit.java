package dev.cohort.bgw;

import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;

/**
 * A BGW kernel that draws from the pairwise generators, split over threads: one {@link BgwLane} per
 * chunk, whose copies of the generators start at the chunk's first element. One per suite, reused
 * (a party's protocols run one at a time).
 *
 * <pre>
 *   begin()              note where each generator stands (base)
 *   lane(c, from)        chunk c draws from copies at base + from·words
 *   finish(m)            no rejection: advance each generator that drew to base + m·words
 *                        a rejection: false, the generators untouched, run again on one thread
 * </pre>
 */
final class BgwSplit {

  private final BgwSuite suite;
  private final AesCtrPrg[] sources; // toSeeded by party, then fromDealer by party
  private final long[] base;
  private final BgwLane[] lanes;

  BgwSplit(BgwSuite suite, int chunks) {
    this.suite = suite;
    int n = suite.parties();
    this.sources = new AesCtrPrg[2 * n];
    this.base = new long[2 * n];
    this.lanes = new BgwLane[chunks];
    for (int c = 0; c < chunks; c++) {
      lanes[c] = BgwLane.copying(suite);
    }
  }

  /**
   * Whether the pairwise generators can be copied (AES-CTR, as {@link BgwKeySetup} makes them);
   * notes where they stand.
   */
  boolean begin() {
    int n = suite.parties();
    for (int k = 0; k < 2 * n; k++) {
      Prg g = k < n ? suite.keys().toSeeded(k) : suite.keys().fromDealer(k - n);
      if (g != null && !(g instanceof AesCtrPrg)) {
        return false;
      }
      sources[k] = (AesCtrPrg) g;
      base[k] = g == null ? 0 : sources[k].position();
    }
    return true;
  }

  int chunks() {
    return lanes.length;
  }

  /** Chunk {@code c}'s lane, its copies positioned at element {@code from}. */
  BgwLane lane(int c, int from) {
    lanes[c].start(sources, base, from);
    return lanes[c];
  }

  /**
   * After all {@code chunks} chunks over {@code m} elements ran: true, and every generator a chunk
   * drew from stands where one thread would have left it; or false when a chunk met a rejected
   * value, leaving the generators where {@link #begin} found them.
   */
  boolean finish(int chunks, int m) {
    for (int c = 0; c < chunks; c++) {
      if (lanes[c].rejected()) {
        return false;
      }
    }
    long words = suite.field().words();
    for (int k = 0; k < sources.length; k++) {
      if (sources[k] != null && lanes[0].used(k)) {
        sources[k].seek(base[k] + m * words);
      }
    }
    return true;
  }
}
