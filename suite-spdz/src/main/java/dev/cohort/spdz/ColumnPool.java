package dev.cohort.spdz;

import java.util.ArrayList;
import java.util.List;

/**
 * A few packed columns of one party, lent out and given back: large columns allocated afresh for
 * every multiplication cost their zeroing, page faults and (past half a G1 region) humongous
 * allocations. A borrowed column holds undefined contents (old shares), so the borrower overwrites
 * all of it; it is given back once nothing references it any more. One party's gates run on one
 * thread, so the pool needs no lock.
 *
 * <p>Who borrows: {@link BeaverMultiply} (this party's shares of d and e, given back once summed;
 * their MAC shares and the opened d and e, given back by the {@link MacCheck} that covered them)
 * and {@link SpdzRangeInput} (the temporary of its composition).
 */
final class ColumnPool {

  private static final int SIZE = 8;

  private final int words;
  private final List<long[]> pool = new ArrayList<>(SIZE);

  /** A pool of columns of elements of {@code words} words each. */
  ColumnPool(int words) {
    this.words = words;
  }

  /** An array of exactly {@code count} elements whose contents are undefined. */
  long[] borrow(int count) {
    int length = count * words;
    for (int i = pool.size() - 1; i >= 0; i--) {
      if (pool.get(i).length == length) {
        return pool.remove(i);
      }
    }
    return new long[length];
  }

  /** Hands back an array from {@link #borrow} that nothing references any more. */
  void giveBack(long[] a) {
    if (pool.size() == SIZE) {
      pool.remove(0); // the oldest goes to the garbage collector
    }
    pool.add(a);
  }
}
