package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Many clients, BGW servers, every result against a plaintext sum computed here. */
class BgwInputServerTest {

  private static final Duration WAIT = Duration.ofSeconds(60);

  @ParameterizedTest
  @ValueSource(strings = {"m61", "m127"})
  void thousandClients_sumMatchesThePlaintextSum(String fieldName) {
    Field field = Fields.byName(fieldName);
    Shape shape = new Shape(4, 32);
    int clients = 1000;
    long[][] values = new long[clients][];
    SplittableRandom random = new SplittableRandom(20);
    for (int c = 0; c < clients; c++) {
      values[c] = new long[] {random.nextLong(-8, 8), random.nextLong(-(1L << 31), 1L << 31)};
    }
    values[0] = new long[] {-8, -(1L << 31)}; // the range's edges
    values[1] = new long[] {7, (1L << 31) - 1};
    Servers.Run<List<Client.Receipt>> run =
        Servers.run(
            3,
            field,
            shape,
            1,
            (p, b) -> b.closeAfter(clients).deadline(Duration.ofSeconds(60)),
            mem ->
                Servers.parallel(
                    clients,
                    8,
                    c -> {
                      try (Client client = Client.over(mem.connect(c), WAIT)) {
                        return client.submit(values[c]);
                      }
                    }));
    long[] expected = new long[2];
    for (long[] v : values) {
      expected[0] += v[0];
      expected[1] += v[1];
    }
    for (Client.Receipt r : run.driver()) {
      assertTrue(r.received(), r.toString());
    }
    for (List<SessionOutcome<long[]>> server : run.outcomes()) {
      SessionOutcome<long[]> o = server.get(0);
      assertEquals(clients, o.contributors());
      assertTrue(o.excluded().isEmpty(), o.excluded().toString());
      assertArrayEquals(new long[] {expected[0], expected[1], expected[0], expected[1]}, o.value());
    }
  }
}
