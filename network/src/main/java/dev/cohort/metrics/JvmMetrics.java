package dev.cohort.metrics;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;

/**
 * The process's own gauges, read from the JVM's management beans at each scrape:
 *
 * <pre>
 * cohort_jvm_heap_used_bytes            heap in use: live objects and garbage not yet collected
 * cohort_jvm_heap_committed_bytes       heap the JVM holds from the OS
 * cohort_jvm_heap_max_bytes             the heap's limit (-Xmx)
 * cohort_jvm_direct_buffers_bytes       direct buffers (Netty's pooled network buffers), off heap
 * cohort_jvm_threads_live               live threads, daemons included
 * </pre>
 *
 * <p>Heap used right after a collection is what the live objects take; between collections it also
 * counts garbage, so watch its low points (or force a collection, {@code jcmd PID GC.run}), not its
 * peaks. Direct buffers count toward the process's memory but not its heap.
 */
public final class JvmMetrics {

  private JvmMetrics() {}

  /** Registers the JVM's gauges in {@code registry}. */
  public static void register(MetricsRegistry registry) {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    BufferPoolMXBean direct = directPool();
    registry.gauge(
        "jvm_heap_used_bytes",
        "Heap in use: live objects and garbage not yet collected.",
        () -> memory.getHeapMemoryUsage().getUsed());
    registry.gauge(
        "jvm_heap_committed_bytes",
        "Heap the JVM holds from the operating system.",
        () -> memory.getHeapMemoryUsage().getCommitted());
    registry.gauge(
        "jvm_heap_max_bytes",
        "The heap's limit (-Xmx); -1 when it has none.",
        () -> memory.getHeapMemoryUsage().getMax());
    registry.gauge(
        "jvm_direct_buffers_bytes",
        "Memory of direct buffers (network buffers), outside the heap.",
        () -> direct == null ? -1 : direct.getMemoryUsed());
    registry.gauge("jvm_threads_live", "Live threads, daemons included.", threads::getThreadCount);
  }

  private static BufferPoolMXBean directPool() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        return pool;
      }
    }
    return null;
  }
}
