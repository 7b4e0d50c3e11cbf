package dev.cohort.transport;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/**
 * Captures what the transports log (every logger under {@code dev.cohort}, DEBUG and up) while it
 * is open, for tests that count log lines.
 */
public final class LogCapture implements AutoCloseable {

  private final Logger logger = (Logger) LoggerFactory.getLogger("dev.cohort");
  private final Level level = logger.getLevel();
  private final ListAppender<ILoggingEvent> appender =
      new ListAppender<>() {
        @Override
        protected void append(ILoggingEvent event) {
          synchronized (this) {
            super.append(event);
            notifyAll(); // wakes await()
          }
        }
      };

  private LogCapture() {
    appender.start();
    logger.addAppender(appender);
    logger.setLevel(Level.DEBUG);
  }

  public static LogCapture start() {
    return new LogCapture();
  }

  /** Lines logged at {@code level} whose message contains {@code text}. */
  public long count(Level at, String text) {
    synchronized (appender) { // appenders append under their own lock
      return appender.list.stream()
          .filter(e -> e.getLevel() == at && e.getFormattedMessage().contains(text))
          .count();
    }
  }

  /**
   * Waits up to {@code timeoutMillis} until at least {@code atLeast} lines at {@code level} contain
   * {@code text} (lines logged by other threads, e.g. as connections close); returns how many do.
   */
  public long await(Level at, String text, long atLeast, long timeoutMillis)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    synchronized (appender) {
      long n = count(at, text);
      while (n < atLeast) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          break;
        }
        appender.wait(left);
        n = count(at, text);
      }
      return n;
    }
  }

  @Override
  public void close() {
    logger.detachAppender(appender);
    logger.setLevel(level);
    appender.stop();
  }
}
