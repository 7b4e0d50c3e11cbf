package dev.cohort.transport;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes a thread has allocated so far (HotSpot's per-thread counter, exact to a TLAB), for
 * tests that show a decoder's memory grows with the bytes a peer sends, not the length it declares.
 */
public final class Allocations {

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private Allocations() {}

  public static long ofCurrentThread() {
    return THREADS.getCurrentThreadAllocatedBytes();
  }

  public static long of(Thread thread) {
    return THREADS.getThreadAllocatedBytes(thread.getId());
  }

  /** Bytes allocated so far by every live thread whose name starts with {@code prefix}. */
  public static long ofThreadsNamed(String prefix) {
    long sum = 0;
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().startsWith(prefix)) {
        sum += Math.max(0, of(t));
      }
    }
    return sum;
  }

  /** A mebibyte, for bounds in tests. */
  public static final long MIB = 1 << 20;
}
