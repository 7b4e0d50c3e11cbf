package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.transport.Failures;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The party thread sleeps until the last frame of a round is there ({@link Arrivals}): frames that
 * arrive in any order, early (a peer already in the next round) or while the party thread is busy
 * must all be counted once, and none may be lost: with the threads sleeping at once (busy poll 0,
 * every round parks and is woken) and with the default busy poll (most rounds complete while the
 * party thread looks, and pauses longer than it still park).
 */
@ExtendWith(LeakCheck.class)
class RoundWakeupTest {

  /** The word party {@code from} sends party {@code to} in round {@code round}. */
  private static long word(int from, int to, int round) {
    return ((long) round << 20) ^ ((long) from << 10) ^ to;
  }

  @ParameterizedTest(name = "busy poll {0} µs")
  @ValueSource(longs = {0, 100})
  void manyRounds_randomPauses_everyFrameArrivesInOrderWithoutTimeouts(long busyPollMicros) {
    int parties = 4;
    int rounds = 3000;
    // A lost wake-up would stall a party until this timeout and fail the test with its message.
    try (LocalParties local =
        LocalParties.builder(parties)
            .mesh(
                Loopback.insecurePlaintext(Transport.NETTY)
                    .with(
                        o ->
                            o.withReceiveTimeout(Duration.ofSeconds(20))
                                .withBusyPoll(Duration.ofNanos(1000 * busyPollMicros))))
            .open()) {
      List<Integer> checked =
          local.onChannels(
              (self, transport) -> {
                Random random = new Random(2026 + self);
                long[][] out = new long[parties][];
                int[] lengths = new int[parties];
                int words = 0;
                for (int r = 0; r < rounds; r++) {
                  for (int p = 0; p < parties; p++) {
                    int length = r % 7 == 0 ? 0 : 1 + (r + p) % 3;
                    out[p] = new long[length];
                    Arrays.fill(out[p], word(self, p, r));
                    lengths[p] = length;
                  }
                  if (random.nextInt(10) == 0) {
                    LockSupport.parkNanos(random.nextInt(200_000)); // busy: frames queue up
                  }
                  long[][] in = transport.exchange(out, lengths);
                  for (int p = 0; p < parties; p++) {
                    if (p != self) {
                      int length = r % 7 == 0 ? 0 : 1 + (r + self) % 3;
                      long[] expected = new long[length];
                      Arrays.fill(expected, word(p, self, r));
                      assertArrayEquals(
                          expected, in[p], "P" + self + " from P" + p + " round " + r);
                      words += length;
                    }
                  }
                }
                return words;
              });
      for (int words : checked) {
        assertTrue(words > rounds, "every party checked the frames it received");
      }
      assertEquals(parties, checked.size());
    }
  }

  @Test
  void describe_longMessage_isShortened() {
    String reason =
        Failures.describe(new IllegalStateException("not a record: " + "ab".repeat(900)));
    assertTrue(reason.length() < 220, reason);
    assertTrue(reason.startsWith("not a record: abab"), reason);
    assertTrue(reason.endsWith("(1814 characters)"), reason);
  }
}
