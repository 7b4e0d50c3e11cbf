package dev.cohort.transport;

/**
 * The waits between a dialer's attempts to reach a peer that is not listening yet: 25 ms, doubling
 * up to 1 s. Both transports redial with it until their connect deadline. Not thread-safe: one
 * instance per dialer.
 */
public final class Backoff {

  /** The wait after the first failed attempt. */
  public static final long FIRST_MILLIS = 25;

  /** The longest wait between two attempts. */
  public static final long MAX_MILLIS = 1000;

  private long delayMillis = FIRST_MILLIS;

  /** The wait before the next attempt, in milliseconds; each call doubles the next, up to 1 s. */
  public long nextMillis() {
    long delay = delayMillis;
    delayMillis = Math.min(delayMillis * 2, MAX_MILLIS);
    return delay;
  }
}
