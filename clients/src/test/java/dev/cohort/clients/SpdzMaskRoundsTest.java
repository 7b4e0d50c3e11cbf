package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Mask requests that reach the servers at different times: a request that reaches the last server
 * only after the others announced it twice is still granted, and a request that reaches only some
 * servers is never granted and does not hold up the others.
 */
class SpdzMaskRoundsTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Field FIELD = Fields.MERSENNE_61;
  private static final Shape SHAPE = new Shape(10);

  @Test
  void requestsReachingServersLateOrNever_lateOneGranted_strayOneNot_othersUnaffected() {
    int late = 50;
    int stray = 51;
    Servers.Run<long[]> run =
        Servers.run(
            Servers.Suite.spdz(FIELD),
            3,
            SHAPE,
            1,
            (p, b) -> b.closeAfter(4).deadline(WAIT),
            mem -> {
              SpdzByHand slow = new SpdzByHand(mem.connect(late), FIELD, SHAPE);
              SpdzByHand partial = new SpdzByHand(mem.connect(stray), FIELD, SHAPE);
              long session = slow.awaitOpen(1);
              partial.awaitOpen(1);
              partial.end().send(0, Messages.maskRequest(session)); // never to servers 1, 2
              slow.end().send(0, Messages.maskRequest(session));
              slow.end().send(1, Messages.maskRequest(session));
              long sum = 0;
              for (int c = 0; c < 3; c++) { // each honest client costs the servers a round or two
                try (Client client = Client.over(mem.connect(c), WAIT)) {
                  assertTrue(client.submit(c + 100).received());
                  sum += c + 100;
                }
              }
              // servers 0 and 1 announced the slow request in every round since: now server 2
              slow.end().send(2, Messages.maskRequest(session));
              long[][] shares = new long[3][];
              for (int i = 0; i < 3; i++) {
                while (shares[i] == null) {
                  byte[] m = slow.end().receive(i, WAIT);
                  if (Messages.type(m) == Messages.MASKS) {
                    shares[i] = Messages.masks(m).words();
                  }
                }
              }
              long[] masks = SpdzSubmissions.masks(FIELD, SHAPE.elements(), shares, session);
              slow.sendReceived(3, session, slow.submission(new long[] {-300}, masks));
              sum -= 300;
              return new long[] {sum, partial.ack(0) == Messages.Status.LATE ? 1 : 0};
            });
    long[] seen = run.driver();
    assertEquals(1, seen[1], "the stray request is refused when the session closes");
    for (int p = 0; p < 3; p++) {
      SessionOutcome<long[]> o = run.outcomes().get(p).get(0);
      assertEquals(4, o.contributors());
      assertArrayEquals(new long[] {seen[0], seen[0]}, o.value());
    }
  }
}
