package dev.cohort.cli;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One point of a sweep: a setting and the runs measured at it (as many as {@code --repeat}, an odd
 * number, so that the median of a metric is one of the runs, not an average of two).
 */
record SweepPoint(String sweep, Setting setting, List<SweepRun> runs) {

  /** The settings a sweep varies: parties, sessions per engine run, one-way latency per link. */
  record Setting(int parties, int parallelism, double latencyMillis) {}

  /** Median, least and greatest value of one metric over a point's runs. */
  record Spread(double median, double min, double max) {}

  SweepPoint {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("a point needs at least one run: " + setting);
    }
    runs = List.copyOf(runs);
  }

  /** The spread of {@code metric} over the runs; the median of an even count is the lower one. */
  Spread spread(ToDoubleFunction<SweepRun> metric) {
    double[] values = new double[runs.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = metric.applyAsDouble(runs.get(i));
    }
    Arrays.sort(values);
    return new Spread(values[(values.length - 1) / 2], values[0], values[values.length - 1]);
  }
}
