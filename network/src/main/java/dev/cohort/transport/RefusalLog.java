package dev.cohort.transport;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Logs the connections a party refuses (TLS failures, bad hellos, handshake timeouts, no free
 * verification slot) without letting a flood of connections flood the log: the first refusal from
 * each host is logged at WARN, the others at DEBUG, and while refusals go on a WARN summary with
 * their count and the last one's reason comes at most once per {@link #SUMMARY_INTERVAL_MILLIS}; a
 * count still untold is logged when the party's network closes. Both transports log every refusal
 * through one of these. Thread-safe.
 *
 * <p>Invariant: WARN lines number at most the hosts remembered ({@link #MAX_HOSTS}), plus one per
 * interval, plus one at close, whatever the number of connections.
 */
public final class RefusalLog {

  /** The shortest time between two WARN summaries. */
  public static final long SUMMARY_INTERVAL_MILLIS = 10_000;

  /** Hosts whose first refusal is logged at WARN; refusals from further hosts are counted. */
  static final int MAX_HOSTS = 16;

  private final Logger log;
  private final LongSupplier nanoTime;
  private final long intervalNanos;

  // guarded by this
  private final Set<InetAddress> hostsSeen = new HashSet<>();
  private long untold; // refusals logged at DEBUG only, not yet counted in a summary
  private long untoldSince;
  private String last;

  /** Logs to {@code log}, summarising at most once per {@link #SUMMARY_INTERVAL_MILLIS}. */
  public RefusalLog(Logger log) {
    this(log, System::nanoTime, TimeUnit.MILLISECONDS.toNanos(SUMMARY_INTERVAL_MILLIS));
  }

  /** For tests: the clock and the interval between summaries. */
  RefusalLog(Logger log, LongSupplier nanoTime, long intervalNanos) {
    this.log = log;
    this.nanoTime = nanoTime;
    this.intervalNanos = intervalNanos;
  }

  /** A connection from {@code from} was refused (or closed) for {@code reason}. */
  public void refused(SocketAddress from, String reason) {
    String line = "refused a connection from " + from + ": " + reason;
    String summary = null;
    boolean first;
    synchronized (this) {
      first = hostsSeen.size() < MAX_HOSTS && hostsSeen.add(host(from));
      if (!first) {
        long now = nanoTime.getAsLong();
        if (untold == 0) {
          untoldSince = now;
        }
        untold++;
        last = line;
        if (now - untoldSince >= intervalNanos) {
          summary = summary(now);
        }
      }
    }
    if (first) {
      log.warn("{} (further refusals from this host are logged at DEBUG, with a summary)", line);
    } else {
      log.debug(line);
      if (summary != null) {
        log.warn(summary);
      }
    }
  }

  /** Logs the refusals not yet summarised; called when the network closes. */
  public void flush() {
    String summary;
    synchronized (this) {
      summary = untold == 0 ? null : summary(nanoTime.getAsLong());
    }
    if (summary != null) {
      log.warn(summary);
    }
  }

  private String summary(long now) {
    long seconds = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(now - untoldSince));
    String summary =
        "refused "
            + untold
            + " more connection"
            + (untold == 1 ? "" : "s")
            + " in the last "
            + seconds
            + " s; the last one: "
            + last;
    untold = 0;
    last = null;
    return summary;
  }

  private static InetAddress host(SocketAddress from) {
    return from instanceof InetSocketAddress a ? a.getAddress() : null;
  }
}
