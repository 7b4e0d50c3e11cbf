package dev.cohort.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Ctrl-C (SIGINT) and SIGTERM during a run: instead of dying mid-session, the run stops after the
 * current batch of sessions, with the server's checkpoint saved, says where it stopped, and the
 * process then exits with the signal's status (130 or 143, {@link ExitCode}). The JVM runs shutdown
 * hooks on those signals: the hook installed here asks the run to stop and waits for it (at most
 * {@code patience}, as a peer that stopped answering could hold the batch forever), then runs the
 * clean-up (deleting a run's generated keys). A run that ends on its own removes the hook.
 */
final class GracefulStop implements AutoCloseable {

  private final AtomicBoolean requested = new AtomicBoolean();
  private final CountDownLatch finished = new CountDownLatch(1);
  private final Thread hook;
  private final Duration patience;
  private final Runnable cleanup;

  private GracefulStop(Duration patience, Runnable cleanup) {
    this.patience = patience;
    this.cleanup = cleanup;
    this.hook = new Thread(this::onSignal, "cohort-graceful-stop");
  }

  /** Installs the hook; close it when the run has ended (and printed what it has to say). */
  static GracefulStop install(Duration patience, Runnable cleanup) {
    GracefulStop stop = new GracefulStop(patience, cleanup);
    Runtime.getRuntime().addShutdownHook(stop.hook);
    return stop;
  }

  /** Whether a signal asked the run to stop. */
  boolean requested() {
    return requested.get();
  }

  /** The last few decisions: the parties of one process are at most a batch apart. */
  private final java.util.Map<Long, Boolean> decisions =
      new java.util.LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, Boolean> eldest) {
          return size() > 4;
        }
      };

  /**
   * Whether the run stops after the batch that ends with {@code session}: decided once, by the
   * first party of this process to get there, and the same answer for every other, so that the
   * parties of an in-process run stop after the same batch.
   */
  synchronized boolean decide(long session) {
    Boolean decided = decisions.get(session);
    if (decided == null) {
      decided = requested.get();
      decisions.put(session, decided);
    }
    return decided;
  }

  private void onSignal() {
    requested.set(true);
    try {
      finished.await(patience.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    cleanup.run();
  }

  /** The run has ended: a signal now ends the process at once; removes the hook if still can. */
  @Override
  public void close() {
    finished.countDown();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // Shutting down already: the hook is running and returns now that the run has ended.
    }
  }
}
