package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The progress bar's estimate follows the recent rate, not the slow start of a run. */
class ProgressTest {

  private static final long SECOND = 1_000_000_000L;

  private long now;

  private String lastLine(StringWriter out) {
    String[] draws = out.toString().split("\r");
    return draws[draws.length - 1];
  }

  @Test
  void estimate_slowStartThenSteady_followsTheSteadyRate() {
    StringWriter out = new StringWriter();
    Progress progress = new Progress(new PrintWriter(out), 1000, true, () -> now);
    now = 3 * SECOND; // connecting and warming up took 3 s for the first 10 sessions
    progress.update(10);
    assertTrue(lastLine(out).contains("10/1000 sessions, 3.0 s, estimating"), out.toString());
    // then 100 sessions a second
    for (int step = 1; step <= 5; step++) {
      now = 3 * SECOND + step * SECOND;
      progress.update(10 + 100L * step);
    }
    // 510 done, 490 left at 100 per second: 5 s (from the start's rate it would be ~7 s)
    assertTrue(lastLine(out).contains("510/1000 sessions, 8.0 s, about 5 s left"), lastLine(out));
  }

  @Test
  void quickRun_drawsNothing() {
    StringWriter out = new StringWriter();
    Progress progress = new Progress(new PrintWriter(out), 100, true, () -> now);
    now = SECOND; // under the 2 s before the bar appears
    progress.update(100);
    progress.finish();
    assertEquals("", out.toString());
  }

  @Test
  void disabled_drawsNothing() {
    StringWriter out = new StringWriter();
    Progress progress = new Progress(new PrintWriter(out), 100, false, () -> now);
    now = 10 * SECOND;
    progress.update(50);
    assertEquals("", out.toString());
  }
}
