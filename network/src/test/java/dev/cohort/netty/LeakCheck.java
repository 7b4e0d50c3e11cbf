package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * Fails a test class when Netty's leak detector (paranoid in this module's surefire setup) reports
 * a buffer that was never released. The detector only logs, and only when a later allocation finds
 * a collected buffer, so after the class this collects garbage, allocates to drain the detector's
 * queue, and counts the ERROR lines it logged. Public for the tests of other Netty users in this
 * module (the metrics endpoint).
 */
public final class LeakCheck implements BeforeAllCallback, AfterAllCallback {

  private static final AtomicInteger LEAKS = new AtomicInteger();
  private static final AppenderBase<ILoggingEvent> COUNTER =
      new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
          if (event.getLevel().isGreaterOrEqual(Level.ERROR)
              && event.getFormattedMessage().contains("LEAK")) {
            LEAKS.incrementAndGet();
          }
        }
      };

  static {
    COUNTER.start();
    Logger detector = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);
    detector.addAppender(COUNTER);
  }

  private int before;

  @Override
  public void beforeAll(ExtensionContext context) {
    before = LEAKS.get();
  }

  @Override
  public void afterAll(ExtensionContext context) throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
      drain();
    }
    assertEquals(0, LEAKS.get() - before, "Netty buffers leaked (see the LEAK lines in the log)");
  }

  /** Every tracked allocation first reports what the collector found unreleased. */
  private static void drain() {
    for (int i = 0; i < 64; i++) {
      ByteBuf pooled = PooledByteBufAllocator.DEFAULT.directBuffer(8);
      pooled.release();
      ByteBuf unpooled = UnpooledByteBufAllocator.DEFAULT.heapBuffer(8);
      unpooled.release();
    }
  }
}
