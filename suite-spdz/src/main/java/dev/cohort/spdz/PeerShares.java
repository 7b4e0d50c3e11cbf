package dev.cohort.spdz;

import dev.cohort.suite.Inbox;

/**
 * The peers' shares of one opening over a Mersenne field (2^61 − 1 or 2^127 − 1), as taken from the
 * round's frames (in place where a frame allows), summed with this party's shares a range of
 * elements at a time: two peers per pass, with the check that every peer's share is in [0, p) fused
 * into the sum. Summed a block at a time, the opened values can be used while they are still in L1
 * ({@link BeaverMultiply}), and disjoint ranges on several threads at once, the check included.
 *
 * <p>Invariant: nothing summed may be used for anything another party or the application sees
 * before {@link #check} has passed; until then a sum may include a value outside the field.
 */
final class PeerShares {

  private final ShareExchange exchange;
  private final int count;
  private final boolean wide; // 2^127 − 1 (two words an element), else 2^61 − 1
  private final int[] peers;
  private final long[][] shares; // peer j's elements lie in shares[j] from element offsets[j]
  private final int[] offsets;
  private volatile boolean canonical = true; // only ever cleared: chunks sum on several threads

  /** Takes {@code count} elements from every other party's frame, in party order. */
  PeerShares(ShareExchange exchange, Inbox in, int count) {
    this.exchange = exchange;
    this.count = count;
    int words = exchange.field().words();
    this.wide = words == 2;
    int n = exchange.parties() - 1;
    this.peers = new int[n];
    this.shares = new long[n][];
    this.offsets = new int[n];
    int j = 0;
    for (int k = 0; k < exchange.parties(); k++) {
      if (k != exchange.self()) {
        offsets[j] = in.takeElements(k, count, words, exchange.spare(in, k, count, j));
        shares[j] = in.elements();
        peers[j++] = k;
      }
    }
  }

  /**
   * {@code sum = own + every peer's shares} on the elements [from, to), with {@code own}'s elements
   * from word {@code ownAt} (this party's shares as it wrote them into a frame, say). Disjoint
   * ranges may be summed on different threads at once.
   */
  void sum(long[] own, int ownAt, long[] sum, int from, int to) {
    long[] addend = own;
    int addendAt = ownAt;
    boolean ok = true;
    int j = 0;
    for (; j + 1 < peers.length; j += 2) {
      ok &=
          wide
              ? SpdzKernels.addChecked127(
                  addend,
                  addendAt,
                  shares[j],
                  2 * offsets[j],
                  shares[j + 1],
                  2 * offsets[j + 1],
                  sum,
                  from,
                  to)
              : SpdzKernels.addChecked61(
                  addend,
                  addendAt,
                  shares[j],
                  offsets[j],
                  shares[j + 1],
                  offsets[j + 1],
                  sum,
                  from,
                  to);
      addend = sum;
      addendAt = 0;
    }
    if (j < peers.length) {
      ok &=
          wide
              ? SpdzKernels.addChecked127(
                  addend, addendAt, shares[j], 2 * offsets[j], sum, from, to)
              : SpdzKernels.addChecked61(addend, addendAt, shares[j], offsets[j], sum, from, to);
    }
    if (!ok) {
      canonical = false; // never set back: no chunk's finding is lost
    }
  }

  /**
   * Aborts naming the first peer (in party order) that sent a share outside the field, and its
   * first such element, if any summed share was one.
   */
  void check() {
    if (!canonical) {
      for (int j = 0; j < peers.length; j++) {
        exchange.checkCanonical(shares[j], offsets[j], peers[j], count); // throws, naming it
      }
      throw new IllegalStateException("a share outside the field was summed but not found again");
    }
  }
}
