package dev.cohort.transport;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Notices when this process itself did not run for a while (stopped by SIGSTOP or a debugger, a
 * long garbage collection, swapped out), so that a party whose peers gave up on it meanwhile says
 * so instead of blaming a healthy peer. A daemon thread of the process ticks every {@link
 * #TICK_MILLIS}; a tick that comes much later than due means nothing in the process ran for that
 * long, since the monotonic clock goes on while a process is stopped. Both transports ask it, only
 * when a peer failed or a receive timed out ({@link #explain}), never on a round's path.
 *
 * <p>A pause still going on when a failure is worded (the ticker has not run since the process
 * resumed) counts too: the time since the last tick says how long it has lasted. Invariant: a pause
 * is reported only if it was longer than the caller's threshold and ended within the caller's
 * window.
 */
public final class PauseWatch {

  /** How often the shared watch ticks. */
  public static final long TICK_MILLIS = 500;

  private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);

  private static volatile PauseWatch shared;

  private final LongSupplier nanoTime;
  private volatile long lastTick;
  private volatile long lastPauseNanos;
  private volatile long lastPauseEnd;

  /** A watch on {@code nanoTime} that ticks only when {@link #tick} is called (tests). */
  PauseWatch(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.lastTick = nanoTime.getAsLong();
  }

  /** The watch of this process, ticking on a daemon thread started on first use. */
  public static PauseWatch shared() {
    PauseWatch watch = shared;
    if (watch == null) {
      synchronized (PauseWatch.class) {
        watch = shared;
        if (watch == null) {
          watch = new PauseWatch(System::nanoTime);
          // Published before the ticker starts: a ticker that ran first would find itself not
          // shared, stop at once, and the watch would report a pause 15 s later.
          shared = watch;
          Thread ticker = new Thread(watch::tickForever, "cohort-pause-watch");
          ticker.setDaemon(true);
          ticker.start();
        }
      }
    }
    return watch;
  }

  /** Makes {@link #shared} return {@code watch} (tests; null: a real one again on next use). */
  static void useShared(PauseWatch watch) {
    synchronized (PauseWatch.class) {
      shared = watch;
    }
  }

  private void tickForever() {
    try {
      while (shared == this) {
        Thread.sleep(TICK_MILLIS);
        tick();
      }
    } catch (InterruptedException e) {
      // a daemon: the process is ending
    }
  }

  /** One tick: a gap since the last one beyond the tick period is a pause of the process. */
  void tick() {
    long now = nanoTime.getAsLong();
    long late = now - lastTick - TICK_NANOS;
    if (late > TICK_NANOS) {
      lastPauseNanos = late;
      lastPauseEnd = now;
    }
    lastTick = now;
  }

  /**
   * How long this process did not run in its last pause longer than {@code thresholdNanos}, if that
   * pause is still going on or ended within the last {@code windowNanos}; 0 otherwise.
   */
  public long pausedNanos(long thresholdNanos, long windowNanos) {
    long now = nanoTime.getAsLong();
    long ongoing = now - lastTick - TICK_NANOS;
    if (ongoing > thresholdNanos) {
      return ongoing;
    }
    long paused = lastPauseNanos;
    return paused > thresholdNanos && now - lastPauseEnd <= windowNanos ? paused : 0;
  }

  /**
   * {@code failure} as it is, or, when this process was paused for longer than its peers wait for
   * it ({@code peersWaitMillis}) in a pause that ended within the last {@code windowMillis} (or
   * goes on), a message that says so first and keeps {@code failure} after it.
   */
  public String explain(String failure, long peersWaitMillis, long windowMillis) {
    long paused =
        pausedNanos(
            TimeUnit.MILLISECONDS.toNanos(peersWaitMillis),
            TimeUnit.MILLISECONDS.toNanos(windowMillis));
    if (paused == 0) {
      return failure;
    }
    return "this party was paused for "
        + Math.round(paused / 1e9)
        + " s (SIGSTOP, a debugger, swapping?), longer than its peers wait for it ("
        + peersWaitMillis
        + " ms): they may have given up on it; what it saw then: "
        + failure;
  }
}
