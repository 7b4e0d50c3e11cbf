package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Fields;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Clients that submit every session: after the first session's opening they get one message per
 * session (server 0's outcome, which announces the next session at every server), submit to the
 * next session as soon as they have it, and every session counts all of them.
 */
class SteadyClientsTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int CLIENTS = 10;
  private static final int SESSIONS = 4;

  @Test
  void steadyClients_oneMessagePerSessionAfterTheFirst_everySessionCountsAll() {
    Shape shape = new Shape(8);
    long[][] values = new long[SESSIONS][CLIENTS];
    long[] expected = new long[SESSIONS];
    SplittableRandom random = new SplittableRandom(31);
    for (int s = 0; s < SESSIONS; s++) {
      for (int c = 0; c < CLIENTS; c++) {
        values[s][c] = random.nextLong(-128, 128);
        expected[s] += values[s][c];
      }
    }
    AtomicIntegerArray opens = new AtomicIntegerArray(CLIENTS);
    AtomicIntegerArray others = new AtomicIntegerArray(CLIENTS);
    Servers.Run<List<Boolean>> run =
        Servers.run(
            3,
            Fields.MERSENNE_61,
            shape,
            SESSIONS,
            (p, b) -> b.closeAfter(CLIENTS).deadline(WAIT),
            mem -> {
              mem.intercept(
                  (server, client, message) -> {
                    if (Messages.type(message) != Messages.OPEN) {
                      others.incrementAndGet(client);
                    } else if (Messages.open(message).session() > 1) {
                      opens.incrementAndGet(client); // the first session's may come twice
                    }
                    return message;
                  });
              return Servers.parallel(
                  CLIENTS,
                  CLIENTS,
                  c -> {
                    try (Client client = Client.over(mem.connect(c), WAIT)) {
                      boolean all = true;
                      for (int s = 0; s < SESSIONS; s++) {
                        long session = client.send(values[s][c]);
                        Client.Counted counted = client.awaitOutcome(session);
                        all &= counted.counted() && counted.session() == s + 1;
                      }
                      return all;
                    }
                  });
            });
    for (boolean counted : run.driver()) {
      assertTrue(counted, "a client's submission did not count in its session");
    }
    for (int c = 0; c < CLIENTS; c++) {
      assertEquals(0, opens.get(c), "openings of later sessions to client " + c);
      assertEquals(SESSIONS, others.get(c), "other messages to client " + c + ": one outcome each");
    }
    for (List<SessionOutcome<long[]>> server : run.outcomes()) {
      long running = 0;
      for (int s = 0; s < SESSIONS; s++) {
        running += expected[s];
        SessionOutcome<long[]> o = server.get(s);
        assertEquals(CLIENTS, o.contributors());
        assertArrayEquals(new long[] {expected[s], running}, o.value(), "session " + (s + 1));
      }
    }
  }
}
