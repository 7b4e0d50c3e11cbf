package dev.cohort.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A count that only goes up, such as submissions received. Safe to call from any number of threads
 * at once: increments go to a {@link LongAdder}, which spreads contended updates over cells instead
 * of retrying one compare-and-set, so the hot path takes no lock and rarely contends.
 */
public final class Counter {

  private final LongAdder adder = new LongAdder();

  Counter() {}

  /** Adds one. */
  public void increment() {
    adder.increment();
  }

  /** Adds {@code amount}, which must not be negative (a counter never goes down). */
  public void add(long amount) {
    if (amount < 0) {
      throw new IllegalArgumentException("a counter only goes up: amount (" + amount + ") < 0");
    }
    adder.add(amount);
  }

  /** The count now; concurrent increments may or may not be seen. */
  public long value() {
    return adder.sum();
  }
}
