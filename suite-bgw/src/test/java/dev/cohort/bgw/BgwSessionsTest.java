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
import dev.cohort.suite.SuiteFactory;
import dev.cohort.suite.plaintext.PlaintextSuite;
import dev.cohort.testing.LinkFrames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sessions on BGW at n = 3: 1000 distance-average sessions (with a multiplication, so a session
 * takes three rounds) give the plaintext suite's values at any parallelism, take one session's
 * rounds at parallelism 1000 and 1000 times them at parallelism 1, with one frame per peer per
 * round.
 */
class BgwSessionsTest {

  private static final int PARTIES = 3;
  private static final int BITS = 32;
  private static final int SESSIONS = 1000;

  private static LocalParties parties(SuiteFactory suite) {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(11);
    return new LocalParties(PARTIES, suite, config, Duration.ofSeconds(60));
  }

  /**
   * P1 and P2 input a distance, P0 the running sum and a weight; the weighted new sum is opened to
   * P0 (null at the others).
   */
  private static Computation<Long> session(int i) {
    return b -> {
      Secret sum = b.input(0, 1000L * i, BITS);
      Secret weight = b.input(0, i % 7 + 1, BITS);
      Secret d1 = b.input(1, i + 1, BITS);
      Secret d2 = b.input(2, -2L * i, BITS);
      Secret total = b.mul(b.add(b.add(sum, d1), d2), weight);
      Deferred<Long> opened = b.openTo(0, total);
      boolean server = b.myId() == 0;
      return () -> server ? opened.get() : null;
    };
  }

  private static List<Computation<Long>> sessions(int count) {
    List<Computation<Long>> list = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      list.add(session(i));
    }
    return list;
  }

  /**
   * The links that carry words in the three rounds of {@link #session}: the inputs (P0, P1 and P2
   * deal), the multiplication's degree reduction (P0..P2t deal), the opening to P0.
   */
  private static final boolean[][][] SESSION_LINKS = {
    LinkFrames.bgwDealing(PARTIES, 1, 0, 1, 2),
    LinkFrames.bgwDealing(PARTIES, 1, 0, 1, 2),
    LinkFrames.opening(PARTIES, 0)
  };

  @ParameterizedTest(name = "parallelism={0}")
  @ValueSource(ints = {1, 20, 1000})
  void sessions_anyParallelism_matchPlaintextWithMergedRounds(int k) {
    SuiteFactory bgw = BgwSuite.factory(Fields.MERSENNE_61);
    List<SessionsResult<Long>> plain =
        parties(PlaintextSuite.factory(Fields.MERSENNE_61, 1)).runSessions(sessions(SESSIONS), k);
    List<SessionsResult<Long>> results = parties(bgw).runSessions(sessions(SESSIONS), k);
    long one = parties(bgw).run(session(0)).get(0).metrics().rounds();
    assertEquals(3, one, "input, multiply, open");
    for (int p = 0; p < PARTIES; p++) {
      SessionsResult<Long> r = results.get(p);
      for (int i = 0; i < SESSIONS; i++) {
        if (p == 0) {
          assertEquals((1000L * i + i + 1 - 2L * i) * (i % 7 + 1), r.values().get(i));
          assertEquals(plain.get(p).values().get(i), r.values().get(i));
        } else {
          assertNull(r.values().get(i));
        }
      }
      RunMetrics m = r.metrics();
      assertEquals((SESSIONS + k - 1) / k * one, m.rounds(), "P" + p);
      assertEquals(SESSIONS, m.elements().get("multiply"), "one product per session");
      long[] frames = LinkFrames.sent(p, m.setupRounds(), SESSION_LINKS, (SESSIONS + k - 1) / k);
      for (int peer = 0; peer < PARTIES; peer++) {
        assertEquals(frames[peer], m.framesSent()[peer], "frames to P" + peer);
      }
    }
  }

  @ParameterizedTest(name = "parallelism={0}")
  @ValueSource(ints = {1, 1000})
  void sessions_oneThrowsInAStep_runFailsNamingIt(int k) {
    List<Computation<Long>> list = sessions(SESSIONS);
    list.set(
        617,
        b -> {
          Secret x = b.mul(b.input(1, 5, BITS), b.input(2, 6, BITS));
          return b.seq(c -> c.open(x))
              .seq(
                  (c, v) -> {
                    throw new ArithmeticException("distance " + v + " out of range");
                  });
        });
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> parties(BgwSuite.factory(Fields.MERSENNE_61)).runSessions(list, k));
    SessionFailedException cause = assertInstanceOf(SessionFailedException.class, e.getCause());
    assertEquals(617, cause.session());
    assertEquals("session 617 failed: distance 30 out of range", cause.getMessage());
  }
}
