package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The rate limit of refusal lines on its own, with a clock the test moves: one WARN line per host,
 * then at most one summary per interval, and what is left at close.
 */
class RefusalLogTest {

  private final AtomicLong now = new AtomicLong();
  private final RefusalLog refusals =
      new RefusalLog(
          LoggerFactory.getLogger("dev.cohort.transport.RefusalLogTest"),
          now::get,
          TimeUnit.SECONDS.toNanos(10));

  private static InetSocketAddress from(String host, int port) {
    return new InetSocketAddress(host, port);
  }

  @Test
  void refused_floodFromOneHost_warnsOnceThenSummarisesPerInterval() {
    try (LogCapture log = LogCapture.start()) {
      for (int i = 0; i < 100; i++) { // 100 refusals within 9.9 s
        now.set(TimeUnit.MILLISECONDS.toNanos(99L * i));
        refusals.refused(from("10.0.0.7", 40000 + i), "bad hello");
      }
      assertEquals(1, log.count(Level.WARN, "refused a connection from /10.0.0.7"));
      assertEquals(99, log.count(Level.DEBUG, "refused a connection from /10.0.0.7"));
      assertEquals(0, log.count(Level.WARN, "more connection"), "no summary within 10 s");
      now.set(TimeUnit.MILLISECONDS.toNanos(10_099)); // 10 s after the first one told at DEBUG
      refusals.refused(from("10.0.0.7", 50000), "bad hello");
      assertEquals(
          1, log.count(Level.WARN, "refused 100 more connections in the last 10 s; the last one:"));
      now.set(TimeUnit.SECONDS.toNanos(11));
      refusals.refused(from("10.0.0.7", 50001), "bad hello");
      refusals.flush();
      assertEquals(1, log.count(Level.WARN, "refused 1 more connection in the last 1 s"));
      refusals.flush();
      assertEquals(3, log.count(Level.WARN, "refused"), "nothing left to tell");
    }
  }

  @Test
  void refused_manyHosts_warnsOncePerHostUpToTheLimit() {
    try (LogCapture log = LogCapture.start()) {
      for (int h = 0; h < RefusalLog.MAX_HOSTS + 5; h++) {
        for (int i = 0; i < 3; i++) {
          refusals.refused(from("10.0.1." + h, 40000 + i), "TLS handshake failed");
        }
      }
      assertEquals(
          RefusalLog.MAX_HOSTS, log.count(Level.WARN, "refused a connection from /10.0.1."));
      assertEquals(
          3L * (RefusalLog.MAX_HOSTS + 5) - RefusalLog.MAX_HOSTS,
          log.count(Level.DEBUG, "refused a connection from /10.0.1."));
    }
  }
}
