package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.clients.Messages.Status;
import dev.cohort.clients.Messages.Submit;
import dev.cohort.field.Fields;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * The session thread's wait for submissions: it wakes once the count it waits for is in (a
 * submission before that no longer wakes it), and submissions from many threads are all counted.
 */
class SessionInboxTest {

  private static final Shape SHAPE = Shape.of(4);
  private static final int WORDS = BgwSubmissions.elements(SHAPE) * Fields.MERSENNE_61.words();

  private static SessionInbox inbox() {
    return new SessionInbox(7, SHAPE, WORDS, new Canonical(Fields.MERSENNE_61));
  }

  private static Submit submit() {
    return new Submit(7, false, SHAPE.bits(), new long[WORDS]);
  }

  @Test
  void closeAfter_returnsWhenTheLastAwaitedSubmissionArrives_fromManyThreads() throws Exception {
    SplittableRandom random = new SplittableRandom(31);
    for (int trial = 0; trial < 20; trial++) {
      SessionInbox inbox = inbox();
      int count = 1 + random.nextInt(200);
      int senders = 1 + random.nextInt(8);
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      CompletableFuture<int[]> closed =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return inbox.closeAfter(count, deadline);
                } catch (InterruptedException e) {
                  throw new IllegalStateException(e);
                }
              });
      CompletableFuture<?>[] sending = new CompletableFuture<?>[senders];
      for (int s = 0; s < senders; s++) {
        int first = s;
        sending[s] =
            CompletableFuture.runAsync(
                () -> {
                  for (int id = first; id < count; id += senders) {
                    assertEquals(Status.RECEIVED, inbox.offer(id, submit()));
                  }
                });
      }
      CompletableFuture.allOf(sending).get(60, TimeUnit.SECONDS);
      // the waiter returns long before its deadline: the last submission woke it
      int[] ids = closed.get(60, TimeUnit.SECONDS);
      int[] expected = new int[count];
      for (int id = 0; id < count; id++) {
        expected[id] = id;
      }
      assertArrayEquals(expected, ids, "trial " + trial);
      assertEquals(Status.LATE, inbox.offer(count, submit()));
    }
  }

  @Test
  void closeAfter_fewerSubmissionsThanAwaited_waitsUntilTheDeadline() throws Exception {
    SessionInbox inbox = inbox();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    CompletableFuture<int[]> closed =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return inbox.closeAfter(5, deadline);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    for (int id = 0; id < 4; id++) {
      assertEquals(Status.RECEIVED, inbox.offer(id, submit()));
    }
    // four of five: the session is still open
    assertThrowsTimeout(closed);
    assertFalse(closed.isDone());
    int[] ids = closed.get(60, TimeUnit.SECONDS); // then the deadline closes it
    assertArrayEquals(new int[] {0, 1, 2, 3}, ids);
    assertTrue(System.nanoTime() - deadline >= 0);
    assertEquals(Status.LATE, inbox.offer(4, submit()));
  }

  private static void assertThrowsTimeout(CompletableFuture<int[]> f)
      throws InterruptedException, ExecutionException {
    try {
      f.get(500, TimeUnit.MILLISECONDS);
      throw new AssertionError("closed before its count or its deadline");
    } catch (TimeoutException expected) {
      // still waiting
    }
  }
}
