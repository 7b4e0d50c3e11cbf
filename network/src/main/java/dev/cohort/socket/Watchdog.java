package dev.cohort.socket;

import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Enforces the handshake timeout of a socket party on one timer thread: a connection whose TLS
 * handshake and hellos are not done within the timeout is closed, which ends whatever read or write
 * its verifying thread is blocked in. Invariant: a watched connection is either released by a
 * successful {@code cancel} of its watch before the timeout, or closed and marked late.
 */
final class Watchdog {

  private final ScheduledThreadPoolExecutor timer;
  private final long timeoutMillis;

  Watchdog(String threadName, long timeoutMillis) {
    this.timer = new ScheduledThreadPoolExecutor(1, SocketNetwork.daemons(threadName));
    timer.setRemoveOnCancelPolicy(true);
    this.timeoutMillis = timeoutMillis;
  }

  /**
   * Closes {@code raw} and sets {@code late} when the handshakes are not done within the timeout;
   * the caller cancels the returned watch once they are (a failed cancel means it was too late).
   */
  ScheduledFuture<?> watch(Socket raw, AtomicBoolean late) throws IOException {
    try {
      return timer.schedule(
          () -> {
            late.set(true);
            PeerConnection.closeQuietly(raw);
          },
          timeoutMillis,
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      throw new IOException("the network is closed");
    }
  }

  void shutdownNow() {
    timer.shutdownNow();
  }

  boolean isTerminated() {
    return timer.isTerminated();
  }

  void awaitTermination() throws InterruptedException {
    timer.awaitTermination(2, TimeUnit.SECONDS);
  }
}
