package dev.cohort.offline;

import dev.cohort.api.AbortException;
import dev.cohort.api.CohortException;
import dev.cohort.api.NetworkException;
import dev.cohort.net.Channel;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.suite.Shares;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * SPDZ preprocessing made in the background while the online phase runs: a thread of this party
 * drives a {@code producer} (the offline phase, {@link OfflinePhase}) over a channel of its own and
 * keeps a batch of each kind the online phase has asked for ready ahead; the online phase takes
 * from the buffers and waits only when the producer has not kept up, and {@link #waitNanos()} says
 * how long it waited.
 *
 * <p>Every party's producer must make the same calls in the same order. Before each batch the
 * parties exchange what each of them lacks (one round: a stop flag and a count per kind) and all
 * make the largest of those counts of the first kind that has the largest, so the decision is the
 * same everywhere although each party's online phase consumes at its own pace. The online phases
 * consume the same items in the same order (the engine draws in the same order at every party), so
 * the k-th item of a kind is the same sharing at every party. While nobody lacks anything the
 * producers exchange an empty round at most every {@link #MAX_IDLE_MILLIS} ms.
 *
 * <p>Each item is handed out once: the buffers drop what they hand out, and nothing persists, so a
 * restarted party starts a new offline phase with a new MAC key. A failed MAC check of the online
 * phase ({@link #macCheckFailed}) stops the producer: its key may be known to a cheater. A producer
 * that fails (a cheat caught by the offline phase's checks, a peer that left) fails every later
 * request with its error, material ready or not. When another party stops its producer (it ended
 * its run, or failed), this one stops too; a request that then finds too little ready fails with a
 * {@link NetworkException} naming that party.
 */
public final class BackgroundPreprocessing implements SpdzPreprocessing, AutoCloseable {

  /** Longest pause between the producers' rounds while no party lacks material. */
  static final int MAX_IDLE_MILLIS = 20;

  private static final int TRIPLES = 0;
  private static final int RANDOM = 1;
  private static final int BITS = 2;

  private final SpdzPreprocessing producer;
  private final Channel channel;
  private final int words;
  private final int parties;
  private final int[] batch;
  private final List<ArrayDeque<Chunk>> buffers = new ArrayList<>();
  private final long[] available;
  private final long[] target; // kept ready: 0 until the kind is first asked for
  private final long[] lacking; // the level the online phase waits for now (0: none)
  private final long[] produced;
  private final Thread thread;
  private RuntimeException failure;
  private boolean closing;
  private boolean stopped;
  private int stoppedBy = -1; // the first party that asked to stop, when not this one
  private long waitNanos;
  private long waits;

  /** A batch of one kind: columns of shares and, for masks at their owner, the values. */
  private static final class Chunk {
    final Shares[] columns;
    final long[] values;
    int at;

    Chunk(Shares[] columns, long[] values) {
      this.columns = columns;
      this.values = values;
    }

    int left() {
      return columns[0].length - at;
    }
  }

  /**
   * Starts the background thread: {@code producer} makes the material over {@code channel}, in
   * batches of {@code tripleBatch} triples and {@code otherBatch} items of every other kind. Every
   * party starts one at the same time, with the same batch sizes.
   */
  public BackgroundPreprocessing(
      SpdzPreprocessing producer, Channel channel, int words, int tripleBatch, int otherBatch) {
    if (tripleBatch < 1 || otherBatch < 1) {
      throw new IllegalArgumentException("batches must be >= 1");
    }
    this.producer = producer;
    this.channel = channel;
    this.words = words;
    this.parties = channel.parties();
    int kinds = 3 + 2 * parties;
    this.batch = new int[kinds];
    Arrays.fill(batch, otherBatch);
    batch[TRIPLES] = tripleBatch;
    for (int k = 0; k < kinds; k++) {
      buffers.add(new ArrayDeque<>());
    }
    this.available = new long[kinds];
    this.target = new long[kinds];
    this.lacking = new long[kinds];
    this.produced = new long[kinds];
    this.thread = new Thread(this::run, "cohort-offline-P" + channel.myId());
    thread.setDaemon(true);
    thread.start();
  }

  // ---- the online phase's side ----

  @Override
  public long[] macKeyShare() {
    return producer.macKeyShare();
  }

  @Override
  public Triples triples(int count) {
    Taken t = take(TRIPLES, count);
    return new Triples(t.columns[0], t.columns[1], t.columns[2]);
  }

  @Override
  public Shares randomElements(int count) {
    return take(RANDOM, count).columns[0];
  }

  @Override
  public Shares randomBits(int count) {
    return take(BITS, count).columns[0];
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    Taken t = take(3 + owner, count);
    return new InputMasks(t.columns[0], t.values);
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    Taken t = take(3 + parties + owner, count);
    return new InputMasks(t.columns[0], t.values);
  }

  @Override
  public void beforeMacReveal() {
    producer.beforeMacReveal();
  }

  @Override
  public void macCheckPassed() {
    producer.macCheckPassed();
  }

  @Override
  public synchronized void macCheckFailed() {
    producer.macCheckFailed();
    if (failure == null) {
      failure =
          new AbortException("a MAC check failed: the offline phase stopped (its key is burned)");
    }
    closing = true;
    notifyAll();
  }

  /** How long the online phase waited for material, in all. */
  @Override
  public synchronized long waitNanos() {
    return waitNanos;
  }

  /** How many requests of the online phase had to wait. */
  public synchronized long waits() {
    return waits;
  }

  /**
   * Waits until every kind the online phase has asked for has a whole batch ready (the level the
   * producer keeps), at most {@code timeout}; true when it has. A party can call this between runs
   * so that the next run, if it draws less than a batch of each kind, never waits.
   */
  public synchronized boolean awaitReady(java.time.Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!ready()) {
      long left = deadline - System.nanoTime();
      if (left <= 0 || stopped || failure != null) {
        return false;
      }
      try {
        wait(Math.max(1, left / 1_000_000));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  private boolean ready() {
    for (int k = 0; k < target.length; k++) {
      if (available[k] < target[k]) {
        return false;
      }
    }
    return true;
  }

  /** Items made so far, per kind (triples, random elements, random bits, masks, input bits). */
  public synchronized long[] produced() {
    return produced.clone();
  }

  private record Taken(Shares[] columns, long[] values) {}

  private synchronized Taken take(int kind, int count) {
    if (failure != null) {
      throw failure; // a producer that failed fails every later request, material ready or not
    }
    if (target[kind] == 0) {
      target[kind] = batch[kind];
    }
    if (available[kind] < count) {
      long start = System.nanoTime();
      waits++;
      lacking[kind] = count; // the level it needs: what it lacks is that minus what is ready
      notifyAll();
      try {
        while (available[kind] < count) {
          if (failure != null) {
            throw failure;
          }
          if (stopped) {
            throw stoppedBy < 0
                ? new IllegalStateException("the offline phase stopped: it was closed")
                : new NetworkException(
                    "P"
                        + stoppedBy
                        + " stopped the background offline phase (it ended its run or failed)"
                        + " while this party still needed material");
          }
          wait();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the offline phase", e);
      } finally {
        lacking[kind] = 0;
        waitNanos += System.nanoTime() - start;
      }
    }
    return remove(kind, count);
  }

  private Taken remove(int kind, int count) {
    ArrayDeque<Chunk> queue = buffers.get(kind);
    int columns = kind == TRIPLES ? 3 : 1;
    if (count == 0) {
      Shares[] none = new Shares[columns];
      Arrays.fill(none, new Shares(0, new long[0], new long[0]));
      return new Taken(none, ownedHere(kind) ? new long[0] : null);
    }
    List<List<Shares>> parts = new ArrayList<>();
    for (int c = 0; c < columns; c++) {
      parts.add(new ArrayList<>());
    }
    boolean hasValues = queue.peek().values != null;
    long[] values = hasValues ? new long[count * words] : null;
    int done = 0;
    while (done < count) {
      Chunk chunk = queue.peek();
      int n = Math.min(chunk.left(), count - done);
      for (int c = 0; c < columns; c++) {
        parts.get(c).add(chunk.columns[c].slice(chunk.at, n, words));
      }
      if (hasValues) {
        System.arraycopy(chunk.values, chunk.at * words, values, done * words, n * words);
      }
      chunk.at += n;
      done += n;
      if (chunk.left() == 0) {
        queue.poll();
      }
    }
    available[kind] -= count;
    Shares[] out = new Shares[columns];
    for (int c = 0; c < columns; c++) {
      out[c] = Shares.concat(parts.get(c), words);
    }
    notifyAll(); // the producer may refill
    return new Taken(out, values);
  }

  /** True for the input masks and input bits of this party (it holds their values). */
  private boolean ownedHere(int kind) {
    return kind >= 3 && (kind - 3) % parties == channel.myId();
  }

  /** Stops the producers (every party's, at their next round) and waits for this one's thread. */
  @Override
  public void close() {
    synchronized (this) {
      closing = true;
      notifyAll();
    }
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  // ---- the producer's side ----

  private void run() {
    int idle = 1;
    try {
      while (true) {
        long[] mine = wants();
        long[] agreed = agree(mine);
        if (agreed == null) {
          break;
        }
        int kind = largest(agreed);
        if (agreed[kind] == 0) {
          pause(idle);
          idle = Math.min(MAX_IDLE_MILLIS, 2 * idle);
          continue;
        }
        idle = 1;
        int n = (int) Math.min(agreed[kind], batch[kind]);
        Chunk chunk = make(kind, n);
        synchronized (this) {
          buffers.get(kind).add(chunk);
          available[kind] += n;
          produced[kind] += n;
          notifyAll();
        }
      }
    } catch (CohortException | IllegalStateException | IllegalArgumentException e) {
      synchronized (this) {
        if (failure == null) {
          failure = e;
        }
      }
    } finally {
      synchronized (this) {
        stopped = true;
        notifyAll();
      }
    }
  }

  /** What this party lacks per kind (word 0: 1 when it stops). */
  private synchronized long[] wants() {
    long[] w = new long[1 + available.length];
    w[0] = closing ? 1 : 0;
    for (int k = 0; k < available.length; k++) {
      w[1 + k] = Math.max(0, Math.max(target[k], lacking[k]) - available[k]);
    }
    return w;
  }

  /** One round: every party's wants; null when some party stops, else the largest per kind. */
  private long[] agree(long[] mine) {
    int me = channel.myId();
    long[][] out = new long[parties][];
    int[] lengths = new int[parties];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        out[p] = mine;
        lengths[p] = mine.length;
      }
    }
    long[][] in = channel.exchange(out, lengths);
    long[] agreed = new long[mine.length - 1];
    boolean stop = mine[0] != 0;
    for (int p = 0; p < parties; p++) {
      long[] w = p == me ? mine : in[p];
      if (w == null || w.length != mine.length) {
        throw new AbortException(
            "P" + p + " sent a malformed request to the background offline phase");
      }
      if (w[0] != 0 && !stop) {
        synchronized (this) {
          stoppedBy = p;
        }
      }
      stop |= w[0] != 0;
      for (int k = 0; k < agreed.length; k++) {
        agreed[k] = Math.max(agreed[k], Math.max(0, w[1 + k]));
      }
    }
    return stop ? null : agreed;
  }

  private static int largest(long[] agreed) {
    int best = 0;
    for (int k = 1; k < agreed.length; k++) {
      if (agreed[k] > agreed[best]) {
        best = k;
      }
    }
    return best;
  }

  private synchronized void pause(int millis) throws IllegalStateException {
    if (closing || anyLacking()) {
      return;
    }
    try {
      wait(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private boolean anyLacking() {
    for (long l : lacking) {
      if (l > 0) {
        return true;
      }
    }
    return false;
  }

  private Chunk make(int kind, int n) {
    if (kind == TRIPLES) {
      Triples t = producer.triples(n);
      return new Chunk(new Shares[] {t.a(), t.b(), t.c()}, null);
    }
    if (kind == RANDOM) {
      return new Chunk(new Shares[] {producer.randomElements(n)}, null);
    }
    if (kind == BITS) {
      return new Chunk(new Shares[] {producer.randomBits(n)}, null);
    }
    int owner = (kind - 3) % parties;
    InputMasks m =
        kind < 3 + parties ? producer.inputMasks(owner, n) : producer.inputBits(owner, n);
    return new Chunk(new Shares[] {m.shares()}, m.values());
  }
}
