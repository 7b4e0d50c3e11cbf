package dev.cohort.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A family of counters told apart by the value of one label, such as submissions refused by {@code
 * reason="late"}, {@code reason="duplicate"}. Each label value has its own {@link Counter}, made on
 * first use and kept for the registry's life.
 *
 * <p>Label values should come from a small fixed set chosen by the code (reasons, kinds), never
 * from a peer's input: each distinct value is a time series for whoever scrapes the endpoint. So
 * that a bug cannot grow it without bound, a family holds at most {@value #MAX_VALUES} values and
 * refuses the next one.
 *
 * <p>Hot path: {@link #increment(String)} is a lock-free map read and a {@link Counter} increment;
 * callers that count often may keep the counter of {@link #labels(String)} instead.
 */
public final class LabelledCounter {

  /** The most label values one family holds. */
  public static final int MAX_VALUES = 100;

  private final String name;
  private final String label;
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

  LabelledCounter(String name, String label) {
    this.name = name;
    this.label = label;
  }

  /** The label's name, such as {@code reason}. */
  public String label() {
    return label;
  }

  /**
   * The counter of {@code value}, made (at zero) on the first call, so that calling this at
   * start-up makes a value appear in the exposition before anything is counted.
   */
  public Counter labels(String value) {
    Counter counter = counters.get(value); // a plain read: no lock once the value exists
    return counter != null ? counter : counters.computeIfAbsent(value, this::create);
  }

  /** Adds one to the counter of {@code value}. */
  public void increment(String value) {
    labels(value).increment();
  }

  /** The count of {@code value} now, 0 if it was never used. */
  public long value(String value) {
    Counter counter = counters.get(value);
    return counter == null ? 0 : counter.value();
  }

  /** The label values seen so far, sorted so that the exposition is stable from one scrape on. */
  List<String> values() {
    List<String> values = new ArrayList<>(counters.keySet());
    Collections.sort(values);
    return values;
  }

  private Counter create(String value) {
    if (value == null) {
      throw new NullPointerException("label value of " + name);
    }
    if (counters.size() >= MAX_VALUES) {
      throw new IllegalStateException(
          name
              + " has "
              + MAX_VALUES
              + " values of label "
              + label
              + " already, refusing \""
              + value
              + "\": label values must come from a small fixed set");
    }
    return new Counter();
  }
}
