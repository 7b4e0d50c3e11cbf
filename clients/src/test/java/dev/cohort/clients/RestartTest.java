package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Fields;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Servers restarted from their saved state: the running sums continue, a session that not every
 * server saved is run again (not counted twice), and states too far apart are refused.
 */
class RestartTest {

  private static final Shape SHAPE = new Shape(16);
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private long[] session(int clients, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = new long[clients];
    for (int c = 0; c < clients; c++) {
      values[c] = random.nextLong(-(1L << 15), 1L << 15);
    }
    Servers.Run<Void> run =
        Servers.run(
            3,
            Fields.MERSENNE_61,
            SHAPE,
            1,
            (p, b) -> b.closeAfter(clients).deadline(WAIT).state(dir.resolve("server-" + p)),
            mem -> {
              Servers.each(
                  clients,
                  4,
                  c -> {
                    try (Client client = Client.over(mem.connect(c), WAIT)) {
                      assertTrue(client.submit(values[c]).received());
                    }
                  });
              return null;
            });
    long sum = 0;
    for (long v : values) {
      sum += v;
    }
    SessionOutcome<long[]> o = run.outcomes().get(0).get(0);
    assertEquals(sum, o.value()[0]);
    for (List<SessionOutcome<long[]>> server : run.outcomes()) {
      assertArrayEquals(o.value(), server.get(0).value());
      assertEquals(o.session(), server.get(0).session());
    }
    return new long[] {o.session(), o.value()[0], o.value()[1], o.totalContributors()};
  }

  @Test
  void aSessionNotEverySeverSaved_isRunAgain_andCountedOnce() throws Exception {
    long[] first = session(20, 1);
    assertEquals(1, first[0]);
    Path backup = dir.resolve("server-0.session-1");
    Files.copy(dir.resolve("server-0"), backup);
    long[] second = session(30, 2);
    assertEquals(2, second[0]);
    assertEquals(first[1] + second[1], second[2]);
    // server 0 lost session 2 (it crashed before saving it): the others go back to session 1
    Files.copy(backup, dir.resolve("server-0"), StandardCopyOption.REPLACE_EXISTING);
    long[] again = session(25, 3);
    assertEquals(2, again[0]);
    assertEquals(first[1] + again[1], again[2]);
    assertEquals(20 + 25, again[3]);
    long[] third = session(10, 4);
    assertEquals(3, third[0]);
    assertEquals(first[1] + again[1] + third[1], third[2]);
  }

  @Test
  void statesMoreThanOneSessionApart_areRefused() throws Exception {
    session(5, 1);
    session(5, 2);
    Files.delete(dir.resolve("server-1")); // back at session 0, the others at 2
    Exception e = assertThrows(Exception.class, () -> session(5, 3));
    Throwable cause = e;
    while (cause.getCause() != null && !cause.getMessage().contains("apart")) {
      cause = cause.getCause();
    }
    assertTrue(cause.getMessage().contains("more than one session apart"), e.toString());
  }
}
