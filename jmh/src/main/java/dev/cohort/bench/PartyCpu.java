package dev.cohort.bench;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The CPU time of one party's compute threads (those whose names start with a prefix: its party
 * thread {@code cohort-P0} and its session groups' threads {@code cohort-P0-group-g}) over an
 * iteration of a benchmark: in total and on the busiest thread, per invocation. With three parties
 * sharing two cores the wall time cannot show what a party on cores of its own would gain from
 * spreading its work; the busiest thread's CPU is that party's bound there.
 */
final class PartyCpu {

  private final String prefix;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private Map<Long, Long> before = new HashMap<>();
  private long invocations;

  PartyCpu(String prefix) {
    this.prefix = prefix;
  }

  /** One more invocation in this iteration. */
  void counted() {
    invocations++;
  }

  void start() {
    before = sample();
    invocations = 0;
  }

  /** Prints total and busiest-thread CPU per invocation since {@link #start}. */
  void report(PrintStream out) {
    if (invocations == 0) {
      return;
    }
    long total = 0;
    long busiest = 0;
    for (Map.Entry<Long, Long> e : sample().entrySet()) {
      long used = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      total += used;
      busiest = Math.max(busiest, used);
    }
    out.printf(
        Locale.ROOT,
        "%n%s compute threads per op: CPU %.1f µs in all, %.1f µs on the busiest thread%n",
        prefix,
        total / 1e3 / invocations,
        busiest / 1e3 / invocations);
  }

  private Map<Long, Long> sample() {
    Map<Long, Long> cpu = new HashMap<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      String name = t.getName();
      if (name.equals(prefix) || name.startsWith(prefix + "-group-")) {
        long ns = threads.getThreadCpuTime(t.getId());
        if (ns >= 0) {
          cpu.put(t.getId(), ns);
        }
      }
    }
    return cpu;
  }
}
