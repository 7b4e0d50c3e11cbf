package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.RunMetrics;
import dev.cohort.engine.SessionFailedException;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sessions in groups on BGW at n = 3: each group an engine of its own on its own thread, sharing
 * the parties' rounds. The values match an exact reference computed here, the rounds are those of
 * the slowest group, every round is one frame per peer, and a failing session is named by its index
 * in the whole list.
 */
class BgwSessionGroupsTest {

  private static final int PARTIES = 3;
  private static final int BITS = 32;
  private static final int SESSIONS = 601;

  private static LocalParties parties(int groups) {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(23).withGroups(groups);
    return new LocalParties(
        PARTIES, BgwSuite.factory(Fields.MERSENNE_61), config, Duration.ofSeconds(60));
  }

  /** Random 32-bit inputs per session and party, from a fixed seed. */
  private static long[][] inputs() {
    SplittableRandom r = new SplittableRandom(2026);
    long[][] x = new long[SESSIONS][PARTIES];
    for (long[] row : x) {
      for (int p = 0; p < PARTIES; p++) {
        row[p] = r.nextInt();
      }
    }
    return x;
  }

  /** (x0 + x1)·x2 + x1, opened to P0: three rounds (input, multiply, open). */
  private static Computation<Long> session(long[] x) {
    return b -> {
      Secret a = b.input(0, x[0], BITS);
      Secret c = b.input(1, x[1], BITS);
      Secret d = b.input(2, x[2], BITS);
      Deferred<Long> opened = b.openTo(0, b.add(b.mul(b.add(a, c), d), c));
      boolean server = b.myId() == 0;
      return () -> server ? opened.get() : null;
    };
  }

  private static final BigInteger P = BigInteger.ONE.shiftLeft(61).subtract(BigInteger.ONE);

  /**
   * The same value in exact integers, reduced mod 2^61 − 1 to the signed representative an opening
   * gives (the product of 33- and 32-bit values exceeds the field).
   */
  private static long reference(long[] x) {
    BigInteger v =
        BigInteger.valueOf(x[0])
            .add(BigInteger.valueOf(x[1]))
            .multiply(BigInteger.valueOf(x[2]))
            .add(BigInteger.valueOf(x[1]))
            .mod(P);
    return (v.compareTo(P.shiftRight(1)) > 0 ? v.subtract(P) : v).longValueExact();
  }

  @ParameterizedTest(name = "groups={0}, parallelism={1}")
  @CsvSource({"2, 1000", "3, 1000", "3, 40", "2, 3", "4, 601"})
  void sessionsInGroups_matchTheReference_oneFramePerPeerPerRound(int groups, int parallelism) {
    long[][] x = inputs();
    List<Computation<Long>> list = new ArrayList<>();
    for (long[] row : x) {
      list.add(session(row));
    }
    List<SessionsResult<Long>> results = parties(groups).runSessions(list, parallelism);
    int k = Math.min(groups, parallelism);
    long rounds = 0; // the slowest group's: its share of sessions over its share of parallelism
    for (int g = 0; g < k; g++) {
      long sessions = SESSIONS / k + (g < SESSIONS % k ? 1 : 0);
      long inFlight = parallelism / k + (g < parallelism % k ? 1 : 0);
      rounds = Math.max(rounds, (sessions + inFlight - 1) / inFlight * 3);
    }
    for (int p = 0; p < PARTIES; p++) {
      SessionsResult<Long> r = results.get(p);
      assertEquals(SESSIONS, r.values().size());
      for (int i = 0; i < SESSIONS; i++) {
        if (p == 0) {
          assertEquals(reference(x[i]), r.values().get(i), "session " + i);
        } else {
          assertNull(r.values().get(i));
        }
      }
      RunMetrics m = r.metrics();
      assertEquals(rounds, m.rounds(), "P" + p);
      assertEquals(1, m.setupRounds(), "each group's key set-up, in the same round");
      assertEquals(SESSIONS, m.elements().get("multiply"), "one product per session");
      for (int peer = 0; peer < PARTIES; peer++) {
        long frames = peer == p ? 0 : m.rounds() + m.setupRounds();
        assertEquals(frames, m.framesSent()[peer], "frames P" + p + " → P" + peer);
      }
    }
  }

  @Test
  void sessionsInGroups_secondRunReusesTheGroups_noNewSetUp() {
    long[][] x = inputs();
    List<Computation<Long>> list = new ArrayList<>();
    for (long[] row : x) {
      list.add(session(row));
    }
    try (LocalParties standing =
        LocalParties.builder(PARTIES)
            .suite(BgwSuite.factory(Fields.MERSENNE_61))
            .config(EngineConfig.defaults().withInsecureSeed(5).withGroups(3))
            .standing()
            .open()) {
      standing.runSessions(list, 1000);
      SessionsResult<Long> again = standing.runSessions(list.subList(0, 300), 300).get(0);
      assertEquals(0, again.metrics().setupRounds());
      assertEquals(3, again.metrics().rounds());
      for (int i = 0; i < 300; i++) {
        assertEquals(reference(x[i]), again.values().get(i), "session " + i);
      }
    }
  }

  @Test
  void sessionInALaterGroupThrows_runFailsNamingItsIndexInTheWholeList() {
    long[][] x = inputs();
    List<Computation<Long>> list = new ArrayList<>();
    for (long[] row : x) {
      list.add(session(row));
    }
    list.set(
        517, // in the third of three groups (sessions 401 to 600)
        b -> {
          Secret v = b.mul(b.input(1, 5, BITS), b.input(2, 6, BITS));
          return b.seq(c -> c.open(v))
              .seq(
                  (c, w) -> {
                    throw new ArithmeticException("distance " + w + " out of range");
                  });
        });
    PartyFailedException e =
        assertThrows(PartyFailedException.class, () -> parties(3).runSessions(list, 1000));
    SessionFailedException cause = assertInstanceOf(SessionFailedException.class, e.getCause());
    assertEquals(517, cause.session());
    assertEquals("session 517 failed: distance 30 out of range", cause.getMessage());
  }
}
