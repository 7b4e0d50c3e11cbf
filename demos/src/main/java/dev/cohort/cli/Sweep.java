package dev.cohort.cli;

import java.util.List;

/**
 * One sweep of {@code cohort bench sweep} (over parties, parallelism or latency): the warm-up runs
 * of its first setting, whether their times settled ({@link WarmUp}) before the most runs allowed,
 * and its measured points in the order of the command line.
 */
record Sweep(String name, List<SweepRun> warmUp, boolean settled, List<SweepPoint> points) {

  Sweep {
    warmUp = List.copyOf(warmUp);
    points = List.copyOf(points);
  }
}
