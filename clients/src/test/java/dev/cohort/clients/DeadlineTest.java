package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Fields;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A session that closes at its deadline: it takes the submissions that arrived before, and a client
 * that comes after is told its submission was late and is not counted.
 */
class DeadlineTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void sessionClosesAtItsDeadline_withTheSubmissionsSoFar_laterOnesAreLate() {
    long[] values = {5, -3, 12, 7};
    Servers.Run<Client.Counted> run =
        Servers.run(
            3,
            Fields.MERSENNE_61,
            Shape.of(8),
            1,
            (p, b) -> b.deadline(Duration.ofMillis(1500)),
            mem -> {
              Client[] clients = new Client[values.length];
              long session = -1;
              for (int c = 0; c < values.length; c++) {
                clients[c] = Client.over(mem.connect(c), WAIT);
                Client.Receipt r = clients[c].submit(values[c]);
                assertTrue(r.received(), r.toString());
                session = r.session();
              }
              // nobody else comes: the session closes at its deadline, and its outcome follows
              Client.Counted first = clients[0].awaitOutcome(session);
              assertTrue(first.counted(), first.toString());
              InMemoryClients.End late = mem.connect(values.length);
              late.send(0, Messages.submit(session, true, new int[] {8}, new long[10]));
              return Client.over(late, WAIT).awaitOutcome(session);
            });
    List<List<SessionOutcome<long[]>>> outcomes = run.outcomes();
    for (List<SessionOutcome<long[]>> server : outcomes) {
      SessionOutcome<long[]> o = server.get(0);
      assertEquals(4, o.contributors());
      assertArrayEquals(new long[] {21, 21}, o.value());
      assertTrue(o.closeNanos() >= Duration.ofMillis(1500).toNanos() - 1_000_000);
    }
    Client.Counted late = run.driver();
    assertFalse(late.counted());
    assertTrue(late.detail().contains("closed"), late.detail());
    assertEquals(1, run.servers()[0].stats().refusedByReason().get("late"));
  }
}
