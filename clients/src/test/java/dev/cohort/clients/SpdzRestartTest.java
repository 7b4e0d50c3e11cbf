package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.spdz.DealerFiles;
import dev.cohort.spdz.SpdzConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPDZ servers restarted from their saved state and their dealer files: the running sums (with
 * their MAC shares) continue, and no triple opened to a client before a restart is opened to a
 * client again, also when a session that not every server saved runs again.
 */
class SpdzRestartTest {

  private static final Field FIELD = Fields.MERSENNE_61;
  private static final Shape SHAPE = new Shape(12);
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  /** One session of {@code clients} clients; returns session, sum, running sum, contributors. */
  private long[] session(int clients, long seed, Set<Long> masksSeen) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] values = new long[clients];
    for (int c = 0; c < clients; c++) {
      values[c] = random.nextLong(-(1L << 11), 1L << 11);
    }
    Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    Servers.Run<Void> run =
        Servers.run(
            Servers.Suite.spdz(SpdzConfig.dealerFiles(FIELD, dir.resolve("dealing"))),
            3,
            SHAPE,
            1,
            (p, b) -> b.closeAfter(clients).deadline(WAIT).state(dir.resolve("server-" + p)),
            mem -> {
              mem.intercept(
                  (server, client, message) -> {
                    if (Messages.type(message) == Messages.MASKS) {
                      for (long w : Messages.masks(message).words()) {
                        seen.add(w);
                      }
                    }
                    return message;
                  });
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
    assertEquals(3L * clients * 3 * SHAPE.elements(), seen.size(), "shares seen, all distinct");
    for (long w : seen) {
      assertFalse(masksSeen.contains(w), "a triple share was opened to a client again");
    }
    masksSeen.addAll(seen);
    long sum = 0;
    for (long v : values) {
      sum += v;
    }
    SessionOutcome<long[]> o = run.outcomes().get(0).get(0);
    assertEquals(sum, o.value()[0]);
    for (List<SessionOutcome<long[]>> server : run.outcomes()) {
      assertArrayEquals(o.value(), server.get(0).value());
    }
    return new long[] {o.session(), o.value()[0], o.value()[1], o.totalContributors()};
  }

  @Test
  void restarts_continueTheSums_andNeverOpenATripleToAClientTwice() throws Exception {
    DealerFiles.writeInsecure(
        dir.resolve("dealing"),
        FIELD,
        3,
        new DealerFiles.Amounts(2 * MaskRounds.BLOCK + 500, 10, 10, 10, 10),
        9);
    Set<Long> masks = new HashSet<>();
    long[] first = session(20, 1, masks);
    assertEquals(1, first[0]);
    Path backup = dir.resolve("server-0.session-1");
    Files.copy(dir.resolve("server-0"), backup);
    long[] second = session(30, 2, masks);
    assertEquals(2, second[0]);
    assertEquals(first[1] + second[1], second[2]);
    // server 0 lost session 2: it runs again, with triples none of the clients got before
    Files.copy(backup, dir.resolve("server-0"), StandardCopyOption.REPLACE_EXISTING);
    long[] again = session(25, 3, masks);
    assertEquals(2, again[0]);
    assertEquals(first[1] + again[1], again[2]);
    assertEquals(20 + 25, again[3]);
  }
}
