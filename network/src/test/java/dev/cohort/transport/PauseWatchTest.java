package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Which pauses of the process a failure is blamed on, with a clock the test moves. */
class PauseWatchTest {

  private static final long TICK = TimeUnit.MILLISECONDS.toNanos(PauseWatch.TICK_MILLIS);
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final AtomicLong now = new AtomicLong(1_000 * SECOND);
  private final PauseWatch watch = new PauseWatch(now::get);

  /** Ticks on time for {@code seconds}. */
  private void run(int seconds) {
    for (long t = 0; t < seconds * SECOND; t += TICK) {
      now.addAndGet(TICK);
      watch.tick();
    }
  }

  @Test
  void pausedNanos_ticksOnTime_noPause() {
    run(30);
    assertEquals(0, watch.pausedNanos(SECOND, 60 * SECOND));
    assertEquals("P1 went silent", watch.explain("P1 went silent", 1000, 60_000));
  }

  @Test
  void pausedNanos_lateTick_isThePauseUntilTheWindowHasPassed() {
    run(5);
    now.addAndGet(TICK + 20 * SECOND); // stopped for 20 s
    watch.tick();
    run(10);
    assertEquals(20 * SECOND, watch.pausedNanos(15 * SECOND, 30 * SECOND));
    assertEquals(0, watch.pausedNanos(25 * SECOND, 30 * SECOND), "shorter than the threshold");
    run(25); // the pause ended 35 s ago
    assertEquals(0, watch.pausedNanos(15 * SECOND, 30 * SECOND), "ended before the window");
  }

  @Test
  void pausedNanos_pauseGoingOnBeforeTheNextTick_counts() {
    run(5);
    now.addAndGet(TICK + 40 * SECOND); // resumed; the ticker has not run yet
    assertEquals(40 * SECOND, watch.pausedNanos(15 * SECOND, 30 * SECOND));
    assertEquals(
        "this party was paused for 40 s (SIGSTOP, a debugger, swapping?), longer than its peers"
            + " wait for it (15000 ms): they may have given up on it; what it saw then: P1 (h:1)"
            + " closed its connection before round 3",
        watch.explain("P1 (h:1) closed its connection before round 3", 15_000, 30_000));
  }
}
