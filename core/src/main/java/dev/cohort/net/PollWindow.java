package dev.cohort.net;

/**
 * How long one thread looks for its next piece of work before it sleeps, adapted to how long it has
 * been waiting lately (as HotSpot adapts its spinning on a monitor to how often spinning paid off).
 * A wait that ended within the busy-poll time would have been caught by polling: the thread polls
 * the full time next. A longer wait would have been polled in vain: the window halves, and under
 * about a microsecond the thread sleeps at once, as it does with a busy poll of zero. Not
 * thread-safe: one per waiting thread.
 *
 * <p>Why adapt: polling pays only when the work comes soon, on a machine with a core free for the
 * thread that brings it. On an overloaded machine waits are longer than the window, and a thread
 * that polls them out looks CPU-bound to the scheduler and loses the head start a sleeping thread
 * gets when it is woken; there the window closes and rounds cost what they cost without polling.
 */
public final class PollWindow {

  private static final long MIN_NANOS = 1000;

  private final long maxNanos;
  private long nanos;

  /** A window of at most {@code maxNanos} (0: never polls), fully open at first. */
  public PollWindow(long maxNanos) {
    this.maxNanos = maxNanos;
    this.nanos = maxNanos;
  }

  /** How long to poll before sleeping in the next wait. */
  public long nanos() {
    return nanos;
  }

  /** A wait has ended after {@code waitedNanos}: the window for the next one. */
  public void waited(long waitedNanos) {
    if (waitedNanos <= maxNanos) {
      nanos = maxNanos;
    } else {
      nanos = nanos / 2 < MIN_NANOS ? 0 : nanos / 2;
    }
  }
}
