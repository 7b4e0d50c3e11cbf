package dev.cohort.spdz;

import java.util.ArrayList;
import java.util.List;

/**
 * The opened values not yet covered by a MAC check, with this party's MAC shares of them, kept as
 * the batches they were opened in (no copy, no object per element). The arrays are never changed
 * after they are added; those of a {@code pooled} batch go back to the {@link ColumnPool} once the
 * check has read them, as no one else holds them.
 */
final class OpenedValues {

  /** One batch: {@code count} opened elements and this party's MAC shares of them. */
  record Batch(long[] values, long[] macs, int count, boolean pooled) {}

  private List<Batch> batches = new ArrayList<>();
  private long count;

  void add(long[] values, long[] macs, int n, boolean pooled) {
    if (n > 0) {
      batches.add(new Batch(values, macs, n, pooled));
      count += n;
    }
  }

  /** Opened elements not yet checked. */
  long count() {
    return count;
  }

  /** Hands over every unchecked batch and starts an empty list. */
  List<Batch> take() {
    List<Batch> taken = batches;
    batches = new ArrayList<>();
    count = 0;
    return taken;
  }
}
