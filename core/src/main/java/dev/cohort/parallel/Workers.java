package dev.cohort.parallel;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fixed pool of {@code threads − 1} daemon threads that, together with the calling thread, run
 * the chunks of a range [0, n) split into at most {@code threads} contiguous pieces. Below a
 * caller-given size per chunk a range is not split and runs inline on the caller: small batches pay
 * nothing. Threads are created once per pool, never per call; a call allocates one job object,
 * never anything per element.
 *
 * <p>Invariant: {@link #run} returns only after every chunk has finished, and everything the chunks
 * wrote is then visible to the caller. The caller claims chunks itself while the workers are busy
 * (with another party's job, say), so a call always finishes, even on a pool shared by many parties
 * or entered again from a chunk.
 *
 * <p>Chunk boundaries are {@code floor(n·c / k)} for chunk c of k: fixed by n and k alone, so a
 * kernel whose chunks write disjoint ranges computes the same bits with any number of threads.
 */
public final class Workers {

  /** The most threads a pool may have. */
  public static final int MAX_THREADS = 256;

  /** One thread, the caller's: every range runs inline. */
  public static final Workers INLINE = new Workers(1);

  private static final ConcurrentHashMap<Integer, Workers> SHARED = new ConcurrentHashMap<>();

  private final int threads;
  private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();

  private Workers(int threads) {
    this.threads = threads;
    for (int i = 1; i < threads; i++) {
      Thread t = new Thread(this::serve, "cohort-worker-" + threads + "-" + i);
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * The pool of {@code threads} threads shared by every caller in this JVM that asks for the same
   * number (the parties of one process share it; each call still finishes on its own).
   *
   * @throws IllegalArgumentException unless 1 ≤ threads ≤ {@value #MAX_THREADS}
   */
  public static Workers of(int threads) {
    if (threads < 1 || threads > MAX_THREADS) {
      throw new IllegalArgumentException(
          "threads (" + threads + ") must be in [1, " + MAX_THREADS + "]");
    }
    return threads == 1 ? INLINE : SHARED.computeIfAbsent(threads, Workers::new);
  }

  public int threads() {
    return threads;
  }

  /**
   * The number of chunks {@link #run} splits [0, n) into: at most {@link #threads()}, each of at
   * least {@code minChunk} elements; 1 when n is below {@code 2·minChunk}, 0 when n is 0.
   */
  public int chunks(int n, int minChunk) {
    if (n < 0 || minChunk < 1) {
      throw new IllegalArgumentException(
          "range (" + n + ") must be >= 0 and chunk size (" + minChunk + ") >= 1");
    }
    if (n == 0) {
      return 0;
    }
    return (int) Math.max(1, Math.min(threads, n / (long) minChunk));
  }

  /** The first element of chunk {@code c} of {@code k} over [0, n); {@code start(k, k, n) = n}. */
  public static int start(int c, int k, int n) {
    return (int) ((long) n * c / k);
  }

  /**
   * Runs {@code task} over [0, n) in {@link #chunks chunks(n, minChunk)} contiguous chunks, the
   * first on the calling thread, and returns when all are done. The first exception of a chunk is
   * rethrown here once every chunk has finished (an {@link Error} or unchecked exception as is).
   */
  public void run(int n, int minChunk, RangeTask task) {
    int k = chunks(n, minChunk);
    if (k == 1) {
      task.run(0, 0, n);
      return;
    }
    if (k == 0) {
      return;
    }
    Job job = new Job(task, n, k);
    for (int i = 1; i < k; i++) {
      queue.add(job);
    }
    job.work();
    job.await();
  }

  private void serve() {
    while (true) {
      try {
        queue.take().work();
      } catch (InterruptedException e) {
        // daemon threads of a shared pool live as long as the JVM: ignore and keep serving
      }
    }
  }

  /** One split range: chunks are claimed in order by whichever thread comes first. */
  private static final class Job {

    private final RangeTask task;
    private final int n;
    private final int k;
    private final AtomicInteger next = new AtomicInteger();
    private int unfinished; // guarded by this
    private Throwable failure; // guarded by this; the first one

    Job(RangeTask task, int n, int k) {
      this.task = task;
      this.n = n;
      this.k = k;
      this.unfinished = k;
    }

    void work() {
      for (int c = next.getAndIncrement(); c < k; c = next.getAndIncrement()) {
        Throwable failed = null;
        try {
          task.run(c, start(c, k, n), start(c + 1, k, n));
        } catch (Throwable t) { // handed to the caller, whatever it is
          failed = t;
        }
        finished(failed);
      }
    }

    private synchronized void finished(Throwable failed) {
      if (failed != null && failure == null) {
        failure = failed;
      }
      if (--unfinished == 0) {
        notifyAll();
      }
    }

    /**
     * Waits for the chunks that other threads claimed. Not interruptible: they write into the
     * caller's arrays, so the caller may not leave before them; the interrupt is kept.
     */
    synchronized void await() {
      boolean interrupted = false;
      while (unfinished > 0) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (failure instanceof RuntimeException r) {
        throw r;
      }
      if (failure instanceof Error e) {
        throw e;
      }
      if (failure != null) {
        throw new IllegalStateException("a chunk of a split kernel failed", failure);
      }
    }
  }
}
