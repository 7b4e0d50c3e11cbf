package dev.cohort.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class WorkersTest {

  /** Every chunk's (index, from, to), in chunk order. */
  private static List<int[]> chunksOf(Workers workers, int n, int minChunk) {
    List<int[]> seen = Collections.synchronizedList(new ArrayList<>());
    workers.run(n, minChunk, (c, from, to) -> seen.add(new int[] {c, from, to}));
    List<int[]> sorted = new ArrayList<>(seen);
    sorted.sort((a, b) -> Integer.compare(a[0], b[0]));
    return sorted;
  }

  @Test
  void run_belowTwoChunks_runsOnceInlineOnTheCaller() {
    Thread caller = Thread.currentThread();
    List<Thread> ran = new ArrayList<>();
    Workers.of(4).run(199, 100, (c, from, to) -> ran.add(Thread.currentThread()));
    assertEquals(List.of(caller), ran);
    List<int[]> chunks = chunksOf(Workers.of(4), 199, 100);
    assertEquals(1, chunks.size());
    assertEquals(List.of(0, 0, 199), List.of(chunks.get(0)[0], chunks.get(0)[1], chunks.get(0)[2]));
  }

  @Test
  void run_emptyRange_runsNothing() {
    AtomicInteger calls = new AtomicInteger();
    Workers.of(2).run(0, 1, (c, from, to) -> calls.incrementAndGet());
    Workers.INLINE.run(0, 1, (c, from, to) -> calls.incrementAndGet());
    assertEquals(0, calls.get());
  }

  @Test
  void run_notDivisible_contiguousChunksCoverTheRangeOnce() {
    for (int threads : new int[] {2, 3, 4}) {
      for (int n : new int[] {2, 7, 10, 1001, 65537}) {
        List<int[]> chunks = chunksOf(Workers.of(threads), n, 1);
        int k = Math.min(threads, n);
        assertEquals(k, chunks.size(), threads + " threads, n " + n);
        int expectedFrom = 0;
        for (int c = 0; c < k; c++) {
          int[] chunk = chunks.get(c);
          assertEquals(c, chunk[0]);
          assertEquals(expectedFrom, chunk[1]);
          int size = chunk[2] - chunk[1];
          // sizes differ by at most one: floor(n/k) or ceil(n/k)
          assertEquals(n / k, size, 1.0, "chunk " + c + " of " + n);
          expectedFrom = chunk[2];
        }
        assertEquals(n, expectedFrom);
      }
    }
  }

  @Test
  void chunks_minimumSize_limitsTheCount() {
    Workers four = Workers.of(4);
    assertEquals(0, four.chunks(0, 10));
    assertEquals(1, four.chunks(1, 10));
    assertEquals(1, four.chunks(19, 10));
    assertEquals(2, four.chunks(20, 10));
    assertEquals(3, four.chunks(39, 10));
    assertEquals(4, four.chunks(1_000_000, 10));
    assertEquals(1, Workers.INLINE.chunks(1_000_000, 1));
    assertThrows(IllegalArgumentException.class, () -> four.chunks(-1, 10));
    assertThrows(IllegalArgumentException.class, () -> four.chunks(10, 0));
  }

  @Test
  void run_largeRange_everyElementWrittenOnceByItsChunk() {
    int n = 1_000_003;
    int[] owner = new int[n];
    Workers.of(3)
        .run(
            n,
            1000,
            (c, from, to) -> {
              for (int i = from; i < to; i++) {
                owner[i] += c + 1;
              }
            });
    for (int i = 0; i < n; i++) {
      int c = owner[i] - 1;
      assertEquals(true, i >= Workers.start(c, 3, n) && i < Workers.start(c + 1, 3, n), "at " + i);
    }
  }

  @Test
  void run_chunkThrows_rethrownOnTheCallerAfterAllFinished() {
    AtomicInteger finished = new AtomicInteger();
    IllegalStateException thrown =
        assertThrows(
            IllegalStateException.class,
            () ->
                Workers.of(4)
                    .run(
                        400,
                        1,
                        (c, from, to) -> {
                          if (c == 2) {
                            throw new IllegalStateException("chunk 2 failed");
                          }
                          finished.incrementAndGet();
                        }));
    assertEquals("chunk 2 failed", thrown.getMessage());
    assertEquals(3, finished.get());
  }

  @Test
  void run_nestedAndConcurrentCalls_allFinish() throws InterruptedException {
    Workers pool = Workers.of(2);
    long[] sums = new long[4];
    Thread[] callers = new Thread[4];
    for (int t = 0; t < callers.length; t++) {
      int me = t;
      callers[t] =
          new Thread(
              () ->
                  pool.run(
                      1000,
                      1,
                      (c, from, to) -> {
                        long[] inner = new long[2];
                        pool.run(to - from, 1, (c2, f2, t2) -> inner[c2] = t2 - f2);
                        synchronized (sums) {
                          sums[me] += inner[0] + inner[1];
                        }
                      }));
      callers[t].start();
    }
    for (Thread caller : callers) {
      caller.join(30_000);
    }
    for (long sum : sums) {
      assertEquals(1000, sum);
    }
  }

  @Test
  void of_sameCount_sharedPool_invalidCountRefused() {
    assertSame(Workers.of(2), Workers.of(2));
    assertSame(Workers.INLINE, Workers.of(1));
    assertEquals(3, Workers.of(3).threads());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workers.of(0));
    assertEquals("threads (0) must be in [1, 256]", e.getMessage());
  }
}
