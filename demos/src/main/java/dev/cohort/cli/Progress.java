package dev.cohort.cli;

import java.io.PrintWriter;

/**
 * A one-line progress bar on standard error for long runs: it appears once a run has taken {@link
 * #SHOW_AFTER_NANOS} and redraws at most every {@link #REDRAW_NANOS}. Thread-safe.
 */
final class Progress {

  static final long SHOW_AFTER_NANOS = 2_000_000_000L;
  static final long REDRAW_NANOS = 200_000_000L;
  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final long total;
  private final boolean enabled;
  private final long start = System.nanoTime();
  private long lastDrawn;
  private boolean shown;

  Progress(PrintWriter err, long total, boolean enabled) {
    this.err = err;
    this.total = total;
    this.enabled = enabled && total > 0;
  }

  synchronized void update(long done) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if (now - start < SHOW_AFTER_NANOS || (shown && now - lastDrawn < REDRAW_NANOS)) {
      return;
    }
    shown = true;
    lastDrawn = now;
    int filled = (int) (WIDTH * Math.min(done, total) / total);
    double seconds = (now - start) / 1e9;
    double eta = done == 0 ? 0 : seconds * (total - done) / done;
    err.printf(
        "\r[%s%s] %d/%d sessions, %.1f s, about %.0f s left ",
        "#".repeat(filled), " ".repeat(WIDTH - filled), done, total, seconds, eta);
    err.flush();
  }

  /** Ends the bar's line, if it was shown. */
  synchronized void finish() {
    if (shown) {
      err.println();
      err.flush();
      shown = false;
    }
  }
}
