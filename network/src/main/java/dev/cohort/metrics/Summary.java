package dev.cohort.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * Observations of an amount, such as the time of one round, kept as their sum, their count and the
 * last one: enough for a rate and a mean over any window ({@code rate(x_sum) / rate(x_count)} in
 * Prometheus) without a histogram's buckets. Amounts are recorded as {@code long}s in the caller's
 * unit (nanoseconds, bytes) and multiplied by the family's scale when exposed (1e-9 turns
 * nanoseconds into the seconds Prometheus expects).
 *
 * <p>Recording is two {@link LongAdder} updates and one volatile write, no lock. A scrape reads the
 * sum and the count one after the other, so it may see an observation in one and not yet in the
 * other; Prometheus accepts that of a summary.
 */
public final class Summary {

  private final LongAdder sum = new LongAdder();
  private final LongAdder count = new LongAdder();
  private final double scale;
  private volatile long last;

  Summary(double scale) {
    this.scale = scale;
  }

  /** Records one observation of {@code amount}, in the caller's unit. */
  public void record(long amount) {
    sum.add(amount);
    count.increment();
    last = amount;
  }

  /** The number of observations so far. */
  public long count() {
    return count.sum();
  }

  /** The sum of the observations so far, in the caller's unit. */
  public long sum() {
    return sum.sum();
  }

  /** The last observation, in the caller's unit; 0 before the first. */
  public long last() {
    return last;
  }

  /** What one unit of the caller's is worth in the exposed unit. */
  double scale() {
    return scale;
  }
}
