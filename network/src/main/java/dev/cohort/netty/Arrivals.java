package dev.cohort.netty;

import dev.cohort.net.PollWindow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes the party thread once per round: when the last of the frames it waits for has arrived, or
 * at once when a peer fails. A frame that arrives while other frames of the round are still missing
 * wakes nobody, so a round of n parties costs the party thread one wake-up, not n − 1.
 *
 * <p>Accounting: the party thread marks every link it still needs as awaited, sets {@link
 * #remaining} to their number and then looks at each queue again; whoever clears a link's awaited
 * mark (the event loop after queueing a frame, or the party thread finding one) counts it down, so
 * each frame is counted exactly once and no wake-up is lost.
 */
final class Arrivals {

  private final PollWindow window;
  private final AtomicInteger remaining = new AtomicInteger();
  private volatile Thread waiter;
  private volatile boolean alarm;

  /**
   * Arrivals whose waiter looks for up to {@code pollNanos} (yielding) before it parks ({@link
   * PollWindow}); 0: parks at once.
   */
  Arrivals(long pollNanos) {
    this.window = new PollWindow(pollNanos);
  }

  /** Party thread: starts waiting for {@code count} links, which it has just marked awaited. */
  void expect(int count) {
    alarm = false;
    remaining.set(count);
    waiter = Thread.currentThread();
  }

  /** Either side: one awaited link has its frame. */
  void countDown() {
    if (remaining.decrementAndGet() == 0) {
      wake();
    }
  }

  /** Event loop: a failure was queued; the party thread must look now. */
  void raiseAlarm() {
    alarm = true;
    wake();
  }

  private void wake() {
    Thread w = waiter;
    if (w != null) {
      LockSupport.unpark(w);
    }
  }

  /**
   * Party thread: parks until every awaited frame is there, a failure was raised, or the deadline
   * ({@link System#nanoTime}) passes; true unless the deadline passed first. It first looks for up
   * to the busy-poll time ({@link PollWindow}: less after long waits), yielding the processor
   * between looks, so that a round whose frames come within that time costs no park and no wake-up
   * (see {@link BusyPollStrategy} for why it yields). An unpark that comes while it looks leaves a
   * permit: the next park returns at once and the loop below looks again, so nothing is lost.
   */
  boolean await(long deadline) {
    long start = System.nanoTime();
    try {
      poll(Math.min(deadline, start + window.nanos()));
      while (remaining.get() > 0 && !alarm) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        LockSupport.parkNanos(this, left);
        if (Thread.interrupted()) {
          Thread.currentThread().interrupt();
          return true; // the caller sees the interrupt
        }
      }
      return true;
    } finally {
      waiter = null;
      window.waited(System.nanoTime() - start);
    }
  }

  /** Looks until the round is complete, a failure was raised, or {@code until} passes. */
  private void poll(long until) {
    while (remaining.get() > 0 && !alarm && until - System.nanoTime() > 0) {
      Thread.yield();
    }
  }
}
