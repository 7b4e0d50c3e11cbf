package dev.cohort.cli;

import java.util.Arrays;
import java.util.List;

/**
 * When a sweep has warmed up: runs of the sweep's first setting are repeated, before anything is
 * measured, until the time per session has stopped falling: the median of the last {@value #WINDOW}
 * runs is no more than {@value #TOLERANCE_PERCENT}% below the median of the {@value #WINDOW} runs
 * before them. Or until the most warm-up runs allowed have run.
 *
 * <p>Why: the first runs in a fresh JVM run interpreted and partly compiled code, and each later
 * run is faster until the JIT compiler has compiled the hot paths; a single warm-up run was not
 * enough (the first point of a sweep measured 3 to 8 times the time of the same setting measured
 * later in the same process). Warming up on the sweep's own first setting makes sure that the code
 * measured first is the code that was warmed.
 *
 * <p>Why this test rather than "the last runs agree within a tolerance": runs of a few dozen
 * sessions on a busy machine differ by a third from one to the next even when warm, so agreement
 * may never come, while noise does not make a median of three fall steadily; a trend does.
 */
final class WarmUp {

  /** How many runs each median takes. */
  static final int WINDOW = 3;

  /** How much faster the later median may be and still count as settled, in percent. */
  static final int TOLERANCE_PERCENT = 10;

  private WarmUp() {}

  /** Whether the times per session of the warm-up runs so far (in order) have stopped falling. */
  static boolean settled(List<Double> millisPerSession) {
    return settled(millisPerSession, TOLERANCE_PERCENT);
  }

  /**
   * Whether the times of the warm-up runs so far (in order) have stopped falling, the later median
   * being at most {@code tolerancePercent} below the earlier: a smaller tolerance for a benchmark
   * whose times fall slowly for many runs ({@code bench clients}: 2 to 3 % a run for a dozen runs,
   * as the JIT compiler works through Netty's and TLS's per-connection paths).
   */
  static boolean settled(List<Double> millis, int tolerancePercent) {
    int n = millis.size();
    if (n < 2 * WINDOW) {
      return false;
    }
    double earlier = median(millis, n - 2 * WINDOW);
    double later = median(millis, n - WINDOW);
    return later >= earlier * (1 - tolerancePercent / 100.0);
  }

  private static double median(List<Double> times, int from) {
    double[] window = new double[WINDOW];
    for (int i = 0; i < WINDOW; i++) {
      window[i] = times.get(from + i);
    }
    Arrays.sort(window);
    return window[WINDOW / 2];
  }
}
