package dev.cohort.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process's CPU time and peak heap over a measured stretch. Peak heap is the largest heap in
 * use that a sampler thread saw, every {@link #SAMPLE_MILLIS} ms: the heap memory pools' own peaks
 * are of no use here, because G1 updates its eden pool only at collections.
 */
final class Resources {

  static final long SAMPLE_MILLIS = 5;

  /** What a stretch cost: process CPU time (-1 when unknown) and peak heap in bytes. */
  record Usage(long processCpuNanos, long peakHeapBytes) {}

  private final long cpuStart;
  private final AtomicLong peak = new AtomicLong();
  private final Thread sampler;
  private volatile boolean running = true;

  private Resources() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    peak.set(memory.getHeapMemoryUsage().getUsed());
    this.cpuStart = processCpuNanos();
    this.sampler =
        new Thread(
            () -> {
              while (running) {
                peak.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                try {
                  Thread.sleep(SAMPLE_MILLIS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "cohort-heap-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  static Resources start() {
    return new Resources();
  }

  Usage stop() {
    running = false;
    sampler.interrupt();
    peak.accumulateAndGet(
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
    long cpu = processCpuNanos();
    return new Usage(cpu < 0 || cpuStart < 0 ? -1 : cpu - cpuStart, peak.get());
  }

  private static long processCpuNanos() {
    OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      return sun.getProcessCpuTime();
    }
    return -1;
  }
}
