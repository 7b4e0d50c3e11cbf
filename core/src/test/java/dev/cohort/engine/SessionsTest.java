package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.plaintext.PlaintextSuite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Sessions runs on the plaintext suite: values in session order, rounds merged across the sessions
 * in flight, one frame per peer per round, and a failing session named.
 */
class SessionsTest {

  private static final int PARTIES = 3;
  private static final int BITS = 32;
  private static final int SESSIONS = 1000;

  private static LocalParties parties() {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(7);
    return new LocalParties(
        PARTIES, PlaintextSuite.factory(Fields.MERSENNE_61, 1), config, Duration.ofSeconds(30));
  }

  /**
   * Distance-average session {@code i}: P1 and P2 input a distance, P0 the running sum; the new sum
   * is opened to P0 (null at the others).
   */
  static Computation<Long> distanceSession(int i) {
    return b -> {
      Secret sum = b.input(0, 1000L * i, BITS);
      Secret d1 = b.input(1, i + 1, BITS);
      Secret d2 = b.input(2, 2L * i, BITS);
      Deferred<Long> total = b.openTo(0, b.add(b.add(sum, d1), d2));
      boolean server = b.myId() == 0;
      return () -> server ? total.get() : null;
    };
  }

  static long distanceExpected(int i) {
    return 1000L * i + (i + 1) + 2L * i;
  }

  static List<Computation<Long>> distanceSessions(int count) {
    List<Computation<Long>> sessions = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      sessions.add(distanceSession(i));
    }
    return sessions;
  }

  /** Two dependent rounds: inputs, then (after the opening) an input of the opened value + 1. */
  static Computation<Long> twoStepSession(int i) {
    return b -> {
      Secret x = b.add(b.input(0, i, BITS), b.input(1, 3, BITS));
      return b.seq(c -> c.open(x)).seq((c, v) -> c.open(c.add(c.input(2, v + 1, BITS), 0)));
    };
  }

  private static void assertDistanceResults(List<SessionsResult<Long>> results) {
    for (int p = 0; p < PARTIES; p++) {
      List<Long> values = results.get(p).values();
      assertEquals(SESSIONS, values.size());
      for (int i = 0; i < SESSIONS; i++) {
        if (p == 0) {
          assertEquals(distanceExpected(i), values.get(i), "session " + i);
        } else {
          assertNull(values.get(i));
        }
      }
    }
  }

  private static long oneSessionRounds() {
    return parties().run(distanceSession(0)).get(0).metrics().rounds();
  }

  @Test
  void sessions_parallelism1_valuesInOrderAndRoundsAddUp() {
    List<SessionsResult<Long>> results = parties().runSessions(distanceSessions(SESSIONS), 1);
    assertDistanceResults(results);
    assertEquals(SESSIONS * oneSessionRounds(), results.get(0).metrics().rounds());
  }

  @Test
  void sessions_parallelism20_roundsDividedByTwenty() {
    List<SessionsResult<Long>> results = parties().runSessions(distanceSessions(SESSIONS), 20);
    assertDistanceResults(results);
    assertEquals(SESSIONS / 20 * oneSessionRounds(), results.get(0).metrics().rounds());
  }

  @Test
  void sessions_parallelism1000_roundsOfOneSession() {
    List<SessionsResult<Long>> results = parties().runSessions(distanceSessions(SESSIONS), 1000);
    assertDistanceResults(results);
    assertEquals(oneSessionRounds(), results.get(0).metrics().rounds());
  }

  @Test
  void sessions_anyParallelism_oneFramePerPeerPerRound() {
    for (int k : new int[] {1, 20, 1000}) {
      for (SessionsResult<Long> r : parties().runSessions(distanceSessions(SESSIONS), k)) {
        RunMetrics m = r.metrics();
        for (int peer = 0; peer < PARTIES; peer++) {
          long want = peer == m.party() ? 0 : m.rounds();
          assertEquals(want, m.framesSent()[peer], "k=" + k + ", P" + m.party() + " to P" + peer);
        }
      }
    }
  }

  @Test
  void sessions_multiRoundSteps_nextSessionJoinsTheNextRound() {
    List<Computation<Long>> sessions = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      sessions.add(twoStepSession(i));
    }
    long one = parties().run(twoStepSession(0)).get(0).metrics().rounds();
    assertEquals(2, one);
    for (int k : new int[] {1, 7, 50}) {
      for (SessionsResult<Long> r : parties().runSessions(sessions, k)) {
        for (int i = 0; i < 50; i++) {
          assertEquals(i + 4L, r.values().get(i), "k=" + k + ", session " + i);
        }
        // ceil(50 / k) waves of sessions of 2 rounds each.
        assertEquals((50 + k - 1) / k * one, r.metrics().rounds(), "k=" + k);
      }
    }
  }

  @Test
  void sessions_noGates_valuesStillReturned() {
    List<Computation<Integer>> sessions = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      int v = i;
      sessions.add(b -> Deferred.of(v * v));
    }
    SessionsResult<Integer> r = parties().runSessions(sessions, 2).get(1);
    assertEquals(List.of(0, 1, 4, 9, 16), r.values());
    assertEquals(0, r.metrics().rounds());
  }

  @Test
  void sessions_oneSessionThrows_runFailsNamingTheSession() {
    List<Computation<Long>> sessions = distanceSessions(100);
    sessions.set(
        37,
        b -> {
          Secret x = b.input(0, 1, BITS);
          return b.seq(c -> c.open(x))
              .seq(
                  (c, v) -> {
                    throw new IllegalArgumentException("bad distance " + v);
                  });
        });
    for (int k : new int[] {1, 20, 100}) {
      PartyFailedException e =
          assertThrows(PartyFailedException.class, () -> parties().runSessions(sessions, k));
      SessionFailedException cause = assertInstanceOf(SessionFailedException.class, e.getCause());
      assertEquals(37, cause.session());
      assertTrue(e.getMessage().contains("session 37 failed: bad distance 1"), e.getMessage());
    }
  }

  @Test
  void sessions_buildThrows_runFailsNamingTheSession() {
    List<Computation<Long>> sessions = distanceSessions(10);
    sessions.set(
        4,
        b -> {
          throw new IllegalStateException("no input");
        });
    PartyFailedException e =
        assertThrows(PartyFailedException.class, () -> parties().runSessions(sessions, 3));
    assertEquals(4, assertInstanceOf(SessionFailedException.class, e.getCause()).session());
  }

  @Test
  void sessions_buildThrowsAfterCallsOfTheBatch_runFailsNamingTheSession() {
    List<Computation<Long>> sessions = distanceSessions(100);
    sessions.set(
        37,
        b -> {
          // the first calls of a distance session, as the batch's trace has them, then a failure
          Secret sum = b.input(0, 1000L * 37, BITS);
          b.add(sum, b.input(1, 38, BITS));
          throw new IllegalStateException("no third distance");
        });
    for (int k : new int[] {1, 20, 100}) {
      PartyFailedException e =
          assertThrows(PartyFailedException.class, () -> parties().runSessions(sessions, k));
      SessionFailedException cause = assertInstanceOf(SessionFailedException.class, e.getCause());
      assertEquals(37, cause.session(), "parallelism " + k);
      assertTrue(e.getMessage().contains("no third distance"), e.getMessage());
    }
  }

  @Test
  void sessions_parallelismZero_rejected() {
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class, () -> parties().runSessions(distanceSessions(3), 0));
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
  }
}
