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
   * threads named {@code prefix} are alive, and returns how many are.
   */
  public static long awaitAtMost(String prefix, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    long live = count(prefix);
    while (live > expected && System.nanoTime() - deadline < 0) {
      Thread.sleep(20);
      live = count(prefix);
    }
    return live;
  }
}
