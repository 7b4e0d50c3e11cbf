package dev.cohort.cli;

import java.io.PrintWriter;

/**
 * A one-line progress bar on standard error for long runs: it appears once a run has taken {@link
 * #SHOW_AFTER_NANOS} and redraws at most every {@link #REDRAW_NANOS}. The time left is estimated
 * from the recent rate (smoothed over the last redraws), not from the start: the first sessions
 * include connecting and warming up and would make the first estimates far too long. Thread-safe.
 * The caller draws it only on a terminal ({@link #onTerminal()}).
 */
final class Progress {

  static final long SHOW_AFTER_NANOS = 2_000_000_000L;
  static final long REDRAW_NANOS = 200_000_000L;
  private static final int WIDTH = 30;

  private final PrintWriter err;
  private final long total;
  private final boolean enabled;
  private final java.util.function.LongSupplier clock;
  private final long start;
  private long lastDrawn;
  private long lastDone;
  private double rate; // sessions per nanosecond, smoothed; 0 until two redraws
  private boolean shown;

  Progress(PrintWriter err, long total, boolean enabled) {
    this(err, total, enabled, System::nanoTime);
  }

  /** A bar that reads the time from {@code clock} (nanoseconds). */
  Progress(PrintWriter err, long total, boolean enabled, java.util.function.LongSupplier clock) {
    this.err = err;
    this.total = total;
    this.enabled = enabled && total > 0;
    this.clock = clock;
    this.start = clock.getAsLong();
  }

  synchronized void update(long done) {
    if (!enabled) {
      return;
    }
    long now = clock.getAsLong();
    if (now - start < SHOW_AFTER_NANOS || (shown && now - lastDrawn < REDRAW_NANOS)) {
      return;
    }
    if (shown && now > lastDrawn) {
      double recent = (double) (done - lastDone) / (now - lastDrawn);
      rate = rate == 0 ? recent : 0.7 * rate + 0.3 * recent;
    }
    shown = true;
    lastDrawn = now;
    lastDone = done;
    int filled = (int) (WIDTH * Math.min(done, total) / total);
    double seconds = (now - start) / 1e9;
    String left =
        rate > 0 ? String.format("about %.0f s left", (total - done) / rate / 1e9) : "estimating";
    err.printf(
        "\r[%s%s] %d/%d sessions, %.1f s, %s ",
        "#".repeat(filled), " ".repeat(WIDTH - filled), done, total, seconds, left);
    err.flush();
  }

  /** Whether standard error is a terminal: redirected output gets no progress bar. */
  static boolean onTerminal() {
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try { // JDK 22+ may return a console for redirected output; isTerminal() then tells
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      return true; // JDK 17 to 21: a console exists only on a terminal
    }
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
