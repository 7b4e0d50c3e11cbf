package dev.cohort.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The JVM's gauges, read back through the text format. */
class JvmMetricsTest {

  private static long gauge(Map<String, Exposition.Family> f, String name) {
    assertEquals("gauge", f.get(name).type(), name);
    return Long.parseLong(Exposition.value(f, name, name));
  }

  @Test
  void scrape_registered_readsHeapDirectBuffersAndThreads() throws InterruptedException {
    MetricsRegistry registry = new MetricsRegistry();
    JvmMetrics.register(registry);
    ByteBuffer held = ByteBuffer.allocateDirect(1 << 20);
    CountDownLatch release = new CountDownLatch(1);
    List<Thread> parked = new ArrayList<>();
    for (int k = 0; k < 5; k++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  release.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              });
      t.start();
      parked.add(t);
    }
    try {
      Map<String, Exposition.Family> f = Exposition.parse(registry.scrape());

      long used = gauge(f, "cohort_jvm_heap_used_bytes");
      long committed = gauge(f, "cohort_jvm_heap_committed_bytes");
      long max = gauge(f, "cohort_jvm_heap_max_bytes");
      assertTrue(used > 0 && used <= committed, used + " used, " + committed + " committed");
      assertTrue(max == -1 || committed <= max, committed + " committed, " + max + " max");
      assertTrue(gauge(f, "cohort_jvm_direct_buffers_bytes") >= held.capacity());
      assertTrue(gauge(f, "cohort_jvm_threads_live") >= parked.size() + 1);
    } finally {
      release.countDown();
      for (Thread t : parked) {
        t.join();
      }
    }
  }
}
