package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Fields;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Many clients, SPDZ servers, every result against a plaintext sum computed here. */
class SpdzInputServerTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @ParameterizedTest
  @CsvSource({"m61, 3", "m127, 3", "m61, 2", "m127, 2"})
  void manyClients_twoSessions_sumsMatchThePlaintextSums(String fieldName, int n) {
    Shape shape = new Shape(4, 32);
    int clients = 250;
    long[][][] values = new long[2][clients][];
    SplittableRandom random = new SplittableRandom(21);
    for (long[][] session : values) {
      for (int c = 0; c < clients; c++) {
        session[c] = new long[] {random.nextLong(-8, 8), random.nextLong(-(1L << 31), 1L << 31)};
      }
    }
    values[0][0] = new long[] {-8, -(1L << 31)}; // the range's edges
    values[0][1] = new long[] {7, (1L << 31) - 1};
    Servers.Run<List<List<Client.Receipt>>> run =
        Servers.run(
            Servers.Suite.spdz(Fields.byName(fieldName)),
            n,
            shape,
            2,
            (p, b) -> b.closeAfter(clients).deadline(Duration.ofSeconds(60)),
            mem -> {
              Client[] devices = new Client[clients];
              for (int c = 0; c < clients; c++) {
                devices[c] = Client.over(mem.connect(c), WAIT);
              }
              List<List<Client.Receipt>> receipts = new java.util.ArrayList<>();
              for (long[][] session : values) {
                receipts.add(Servers.parallel(clients, 8, c -> devices[c].submit(session[c])));
              }
              return receipts;
            });
    long[] running = new long[2];
    for (int s = 0; s < 2; s++) {
      long[] expected = new long[2];
      for (long[] v : values[s]) {
        expected[0] += v[0];
        expected[1] += v[1];
      }
      running[0] += expected[0];
      running[1] += expected[1];
      for (Client.Receipt r : run.driver().get(s)) {
        assertTrue(r.received(), r.toString());
        assertEquals(s + 1, r.session());
      }
      for (List<SessionOutcome<long[]>> server : run.outcomes()) {
        SessionOutcome<long[]> o = server.get(s);
        assertEquals(clients, o.contributors());
        assertTrue(o.excluded().isEmpty(), o.excluded().toString());
        assertArrayEquals(new long[] {expected[0], expected[1], running[0], running[1]}, o.value());
      }
    }
  }

  @Test
  void clientsThatSendAndLeave_areCountedAndToldByServerZero() {
    int clients = 60;
    Servers.Run<List<Client.Counted>> run =
        Servers.run(
            Servers.Suite.spdz(Fields.MERSENNE_61),
            2,
            Shape.of(16),
            1,
            (p, b) -> b.closeAfter(clients).deadline(WAIT),
            mem -> {
              Client[] devices = new Client[clients];
              long[] sessions = new long[clients];
              for (int c = 0; c < clients; c++) {
                devices[c] = Client.over(mem.connect(c), WAIT);
              }
              // all send first (masks, then no confirmation), then all wait for the outcome
              Servers.each(clients, 8, c -> sessions[c] = devices[c].send(c - 30));
              List<Client.Counted> counted =
                  Servers.parallel(clients, 8, c -> devices[c].awaitOutcome(sessions[c]));
              for (Client d : devices) {
                d.close();
              }
              return counted;
            });
    long expected = 0;
    for (int c = 0; c < clients; c++) {
      expected += c - 30;
    }
    for (Client.Counted counted : run.driver()) {
      assertTrue(counted.counted(), counted.detail());
      assertEquals(clients, counted.contributors());
    }
    assertArrayEquals(new long[] {expected, expected}, run.outcomes().get(1).get(0).value());
  }
}
