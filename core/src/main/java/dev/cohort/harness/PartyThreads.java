package dev.cohort.harness;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Runs one task per party, each party on a thread of its own, waits for all of them and returns
 * their results in party order. Invariant: a run that any party fails throws one {@link
 * PartyFailedException} naming the party that failed first (a failure of its own before a failed
 * exchange, which is usually the echo of a peer that gave up), with every other failure suppressed
 * in it; it never sleeps and never swallows an exception.
 *
 * <p>"First" is the order in which parties gave up: a task that throws gives up then, and a party
 * may say it gives up earlier with {@link #failing} (as a failing engine does when it aborts its
 * channel, before its peers see the abort and fail in turn). A party still running at the deadline
 * fails with "did not finish within", ranked after every party that gave up.
 *
 * <p>Two lifetimes. {@link #oneShot} starts fresh threads for every run and stops them after it.
 * {@link #standing} keeps a thread for every party but the first, which runs on the caller's own
 * thread: a run of standing parties costs no thread start-up and no hand-off on party 0's path,
 * which is what a benchmark of one round wants to measure. Runs must not overlap.
 */
public final class PartyThreads implements AutoCloseable {

  /** The deadline of {@link #each}. */
  static final Duration EACH_DEADLINE = Duration.ofSeconds(60);

  /** What one party does; its exception fails the run, naming the party. */
  @FunctionalInterface
  public interface Task<R> {
    R run(int party) throws Exception;
  }

  private final int parties;
  private final Duration deadline; // null: none
  private final ExecutorService[] standing; // party p >= 1 runs on standing[p]; null: one-shot
  private final AtomicInteger failureOrder = new AtomicInteger();
  private final AtomicIntegerArray failedAt; // 0: has not given up in this run

  private PartyThreads(int parties, Duration deadline, boolean keepThreads) {
    if (parties < 1) {
      throw new IllegalArgumentException("parties (" + parties + ") must be >= 1");
    }
    this.parties = parties;
    this.deadline = deadline;
    this.failedAt = new AtomicIntegerArray(parties);
    if (keepThreads) {
      standing = new ExecutorService[parties];
      for (int p = 1; p < parties; p++) {
        int party = p;
        standing[p] = Executors.newSingleThreadExecutor(r -> daemon(r, party));
      }
    } else {
      standing = null;
    }
  }

  /** Fresh threads for every run; a run waits at most {@code deadline} (null: until all end). */
  public static PartyThreads oneShot(int parties, Duration deadline) {
    return new PartyThreads(parties, deadline, false);
  }

  /**
   * A thread kept for each party from P1 on, P0 on the caller's thread; a run waits at most {@code
   * deadline} from its start (null: until all end).
   */
  public static PartyThreads standing(int parties, Duration deadline) {
    return new PartyThreads(parties, deadline, true);
  }

  /** Runs {@code task} once on fresh threads for each of {@code parties} parties; waits 60 s. */
  public static <R> List<R> each(int parties, Task<R> task) {
    try (PartyThreads threads = oneShot(parties, EACH_DEADLINE)) {
      return threads.run(task);
    }
  }

  public int parties() {
    return parties;
  }

  /** Records that {@code party} gives up now, if it has not yet in this run: it ranks by it. */
  public void failing(int party) {
    if (failedAt.get(party) == 0) {
      failedAt.compareAndSet(party, 0, failureOrder.incrementAndGet());
    }
  }

  /**
   * Runs {@code task} for every party and returns the results in party order; throws {@link
   * PartyFailedException} naming the first party to fail when any does.
   */
  public <R> List<R> run(Task<R> task) {
    failureOrder.set(0);
    for (int p = 0; p < parties; p++) {
      failedAt.set(p, 0);
    }
    List<Future<R>> futures = new ArrayList<>(parties);
    Throwable[] causes = new Throwable[parties];
    List<R> results = new ArrayList<>(parties);
    ExecutorService pool = standing == null ? freshPool() : null;
    try {
      long start = System.nanoTime();
      for (int p = standing == null ? 0 : 1; p < parties; p++) {
        int party = p;
        ExecutorService executor = standing == null ? pool : standing[p];
        futures.add(executor.submit(() -> attempt(party, task)));
      }
      if (standing != null) {
        try {
          results.add(attempt(0, task));
        } catch (Exception | Error e) { // reported as P0's failure below
          causes[0] = e;
          results.add(null);
        }
      }
      collect(futures, start, results, causes);
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    throwFirst(causes);
    return results;
  }

  private <R> R attempt(int party, Task<R> task) throws Exception {
    if (standing == null) {
      Thread.currentThread().setName("cohort-" + PartyId.of(party));
    }
    try {
      return task.run(party);
    } catch (Exception | Error e) {
      failing(party);
      throw e;
    }
  }

  private <R> void collect(
      List<Future<R>> futures, long start, List<R> results, Throwable[] causes) {
    int first = parties - futures.size();
    for (int i = 0; i < futures.size(); i++) {
      int p = first + i;
      try {
        results.add(await(futures.get(i), start));
      } catch (ExecutionException e) {
        causes[p] = e.getCause();
        results.add(null);
      } catch (TimeoutException e) {
        causes[p] = new IllegalStateException("did not finish within " + deadline);
        results.add(null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the parties", e);
      }
    }
  }

  private <R> R await(Future<R> future, long start)
      throws ExecutionException, TimeoutException, InterruptedException {
    if (deadline == null) {
      return future.get();
    }
    long left = Math.max(1, start + deadline.toNanos() - System.nanoTime());
    return future.get(left, TimeUnit.NANOSECONDS);
  }

  private void throwFirst(Throwable[] causes) {
    int first = -1;
    for (int p = 0; p < parties; p++) {
      if (causes[p] != null && (first < 0 || before(p, first, causes))) {
        first = p;
      }
    }
    if (first < 0) {
      return;
    }
    PartyFailedException failure = new PartyFailedException(PartyId.of(first), causes[first]);
    for (int p = 0; p < parties; p++) {
      if (p != first && causes[p] != null) {
        failure.addSuppressed(new PartyFailedException(PartyId.of(p), causes[p]));
      }
    }
    throw failure;
  }

  /**
   * Whether {@code p}'s failure explains the run better than {@code q}'s: a failure of its own
   * ranks before a failed exchange (a {@link NetworkException}, usually the echo of a peer that
   * gave up: a party refusing its material closes its channel before its exception reaches here),
   * then the earlier one first.
   */
  private boolean before(int p, int q, Throwable[] causes) {
    boolean pEcho = isNetwork(causes[p]);
    boolean qEcho = isNetwork(causes[q]);
    if (pEcho != qEcho) {
      return qEcho;
    }
    return rank(p) < rank(q);
  }

  private static boolean isNetwork(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof NetworkException) {
        return true;
      }
    }
    return false;
  }

  private int rank(int party) {
    int order = failedAt.get(party);
    return order == 0 ? Integer.MAX_VALUE : order;
  }

  private ExecutorService freshPool() {
    return Executors.newFixedThreadPool(parties, r -> daemon(r, -1));
  }

  private static Thread daemon(Runnable r, int party) {
    Thread t = new Thread(r, party < 0 ? "cohort-party" : "cohort-" + PartyId.of(party));
    t.setDaemon(true);
    return t;
  }

  /** Stops the standing threads (interrupting a task still running); one-shot threads are gone. */
  @Override
  public void close() {
    if (standing != null) {
      for (int p = 1; p < parties; p++) {
        standing[p].shutdownNow();
      }
    }
  }
}
