package dev.cohort.parallel;

/**
 * The work on one contiguous range of a split kernel. Chunks of one {@link Workers#run} may run at
 * the same time on different threads, so a task writes only to the elements of its own range and to
 * state it owns by {@code chunk} (scratch arrays, a positioned generator).
 */
@FunctionalInterface
public interface RangeTask {

  /** Processes elements {@code [from, to)}, chunk number {@code chunk} (from 0, ascending). */
  void run(int chunk, int from, int to);
}
