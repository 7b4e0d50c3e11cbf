package dev.cohort.transport;

import java.util.concurrent.TimeUnit;

/** Counts live threads by name, for tests that a transport stops every thread it started. */
public final class LiveThreads {

  private LiveThreads() {}

  /** Live threads whose name starts with {@code prefix}. */
  public static long count(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
        .count();
  }

  /**
   * Threads end shortly after their pools terminate; waits up to 5 s until at most {@code expected}
   * threads named {@code prefix} are alive (joining them, in no particular order), and returns how
   * many are.
   */
  public static long awaitAtMost(String prefix, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    // Joins the matching threads in turn, a short slice each (some may outlive the wait, such as
    // another test's event loop), so that the wait ends as soon as enough of them have ended.
    while (count(prefix) > expected) {
      for (Thread t : Thread.getAllStackTraces().keySet()) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return count(prefix);
        }
        if (t.isAlive() && t.getName().startsWith(prefix)) {
          t.join(Math.min(left, 50));
          if (count(prefix) <= expected) {
            break;
          }
        }
      }
    }
    return count(prefix);
  }
}
