package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A corrupt server offsets one of its triple shares in the input masks it sends one client, which
 * would shift that client's bit: the client's check c = a·b catches it and the client submits
 * nothing; the session goes on with the others, its sum theirs.
 */
class SpdzCheatingServerTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Shape SHAPE = new Shape(6, 20);
  private static final int VICTIM = 100;
  private static final int CHEATER = 1;

  @ParameterizedTest
  @CsvSource({"a, m61, 2", "b, m127, 3", "c, m61, 3", "a, m127, 3"})
  void offsetTripleShare_isCaughtByTheClient_whichSubmitsNothing(
      String component, String fieldName, int n) {
    Field field = Fields.byName(fieldName);
    int m = SHAPE.elements();
    int element = ("abc".indexOf(component)) * m + 11; // triple 11, as the client sees it
    int honest = 20;
    AtomicInteger tampered = new AtomicInteger();
    long[][] values = new long[honest][];
    SplittableRandom random = new SplittableRandom(5);
    long[] expected = new long[2];
    for (int c = 0; c < honest; c++) {
      values[c] = new long[] {random.nextLong(-32, 32), random.nextLong(-(1L << 19), 1L << 19)};
      expected[0] += values[c][0];
      expected[1] += values[c][1];
    }
    Servers.Run<AbortException> run =
        Servers.run(
            Servers.Suite.spdz(field),
            n,
            SHAPE,
            1,
            (p, b) -> b.closeAfter(honest).deadline(WAIT),
            mem -> {
              mem.intercept(
                  (server, client, message) -> {
                    if (server != CHEATER
                        || client != VICTIM
                        || Messages.type(message) != Messages.MASKS) {
                      return message;
                    }
                    Messages.Masks masks = Messages.masks(message);
                    long[] words = masks.words();
                    long[] one = field.alloc(1);
                    field.encode(1, one, 0);
                    field.add(words, element, one, 0, words, element, 1);
                    tampered.incrementAndGet();
                    return Messages.masks(masks.session(), masks.triples(), words);
                  });
              AbortException caught;
              try (Client victim = Client.over(mem.connect(VICTIM), WAIT)) {
                caught = assertThrows(AbortException.class, () -> victim.submit(1, 2));
              }
              Servers.each(
                  honest,
                  4,
                  c -> {
                    try (Client client = Client.over(mem.connect(c), WAIT)) {
                      Client.Receipt r = client.submit(values[c]);
                      assertTrue(r.received(), r + " " + java.util.Arrays.toString(r.details()));
                    }
                  });
              return caught;
            });
    assertEquals(1, tampered.get());
    assertTrue(
        run.driver().getMessage().contains("fail the check c = a·b at triple 11"),
        run.driver().getMessage());
    assertTrue(run.driver().getMessage().contains("nothing was submitted"));
    for (int p = 0; p < n; p++) {
      SessionOutcome<long[]> o = run.outcomes().get(p).get(0);
      assertEquals(honest, o.received(), "the victim's submission never left it");
      assertEquals(honest, o.contributors());
      assertTrue(o.excluded().isEmpty(), o.excluded().toString());
      assertArrayEquals(new long[] {expected[0], expected[1], expected[0], expected[1]}, o.value());
    }
  }
}
