package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.random.Prg;
import dev.cohort.suite.SessionGroups;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.suite.plaintext.PlaintextSuite;
import dev.cohort.testing.ForwardingSuiteFactory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The engine's groups of sessions on the plaintext suite, allowed to run in groups here (its suites
 * share nothing secret; it is the INSECURE oracle): values in session order from every group, the
 * slowest group's rounds with one frame per peer each, a failing session named by its index in the
 * whole list, later runs reusing the groups, a suite that shares material refused, a peer that
 * gives up failing every group, and a run that cannot use groups run by the engine itself.
 */
class EngineGroupsTest {

  private static final int PARTIES = 3;
  private static final int SESSIONS = 500;

  /** The plaintext suite, declared able to run in groups: for this test only. */
  private static SuiteFactory groupable() {
    return new ForwardingSuiteFactory(PlaintextSuite.factory(Fields.MERSENNE_61, 1)) {
      @Override
      public boolean runsInGroups() {
        return true;
      }
    };
  }

  private static LocalParties parties(int groups, boolean standing) {
    LocalParties.Builder b =
        LocalParties.builder(PARTIES)
            .suite(groupable())
            .config(EngineConfig.defaults().withInsecureSeed(3).withGroups(groups))
            .deadline(Duration.ofSeconds(60));
    return (standing ? b.standing() : b).open();
  }

  @Test
  void groupsOfSessions_valuesInOrder_slowestGroupsRounds_oneFramePerPeerPerRound() {
    List<SessionsResult<Long>> results =
        parties(3, false).runSessions(SessionsTest.distanceSessions(SESSIONS), 30);
    // groups of 167, 167, 166 sessions with 10 in flight each: 17 batches of one round (the
    // plaintext suite opens in one round)
    for (int p = 0; p < PARTIES; p++) {
      SessionsResult<Long> r = results.get(p);
      for (int i = 0; i < SESSIONS; i++) {
        if (p == 0) {
          assertEquals(SessionsTest.distanceExpected(i), r.values().get(i), "session " + i);
        } else {
          assertNull(r.values().get(i));
        }
      }
      assertEquals(17, r.metrics().rounds(), "P" + p);
      assertEquals(SESSIONS, r.metrics().elements().get("open"), "one opened value per session");
      for (int q = 0; q < PARTIES; q++) {
        assertEquals(q == p ? 0 : 17, r.metrics().framesSent()[q], "P" + p + " → P" + q);
      }
    }
  }

  @Test
  void standingParties_secondRunInGroups_andARunTooSmallForGroups() {
    try (LocalParties standing = parties(4, true)) {
      standing.runSessions(SessionsTest.distanceSessions(SESSIONS), 1000);
      SessionsResult<Long> again = standing.runSessions(SessionsTest.distanceSessions(8), 8).get(0);
      assertEquals(1, again.metrics().rounds(), "4 groups of 2 sessions, 2 in flight each");
      SessionsResult<Long> alone = standing.runSessions(SessionsTest.distanceSessions(3), 1).get(0);
      assertEquals(3, alone.metrics().rounds(), "parallelism 1: the engine itself, no groups");
      for (int i = 0; i < 8; i++) {
        assertEquals(SessionsTest.distanceExpected(i), again.values().get(i));
      }
      assertEquals(SessionsTest.distanceExpected(2), alone.values().get(2));
    }
  }

  @Test
  void sessionInTheLastGroupThrows_namedByItsIndexInTheWholeList() {
    List<Computation<Long>> list = SessionsTest.distanceSessions(SESSIONS);
    list.set(
        444,
        b -> {
          throw new IllegalStateException("no route for device 7");
        });
    PartyFailedException e =
        assertThrows(PartyFailedException.class, () -> parties(2, false).runSessions(list, 100));
    SessionFailedException cause = assertInstanceOf(SessionFailedException.class, e.getCause());
    assertEquals(444, cause.session());
    assertEquals("session 444 failed: no route for device 7", cause.getMessage());
  }

  /**
   * A groupable plaintext factory whose {@link SessionGroups} logs what the engine asks of it: one
   * per engine, the engine's own suite from {@code whole}, group g's from {@code group(g)}, and the
   * number of groups before each run in groups.
   */
  private static SuiteFactory logging(List<String> log) {
    SuiteFactory plain = groupable();
    return new ForwardingSuiteFactory(plain) {
      @Override
      public SessionGroups groups(int groups) {
        log.add("groups " + groups);
        return new SessionGroups() {
          @Override
          public SuiteFactory whole() {
            return creating("whole");
          }

          @Override
          public SuiteFactory group(int g) {
            return creating("group " + g);
          }

          @Override
          public void beforeRun(int running) {
            log.add("run of " + running);
          }
        };
      }

      private SuiteFactory creating(String what) {
        return new ForwardingSuiteFactory(plain) {
          @Override
          public Suite create(int party, int parties, Prg prg) {
            log.add(what);
            return super.create(party, parties, prg);
          }
        };
      }
    };
  }

  @Test
  void engineInGroups_oneSessionGroupsPerEngine_toldEachRunsGroups() {
    List<String> log = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    try (LocalParties one =
        LocalParties.builder(PARTIES)
            .suites(p -> p == 0 ? logging(log) : groupable())
            .config(EngineConfig.defaults().withInsecureSeed(3).withGroups(3))
            .standing()
            .open()) {
      one.runSessions(SessionsTest.distanceSessions(30), 30);
      one.runSessions(SessionsTest.distanceSessions(30), 2);
      SessionsResult<Long> alone = one.runSessions(SessionsTest.distanceSessions(4), 1).get(0);
      assertEquals(SessionsTest.distanceExpected(3), alone.values().get(3));
    }
    assertEquals(
        List.of("groups 3", "whole", "group 0", "group 1", "group 2", "run of 3", "run of 2"), log);
  }

  @Test
  void suiteThatSharesMaterial_refused() {
    InMemoryNetwork network = new InMemoryNetwork(PARTIES, Duration.ofSeconds(5));
    SuiteFactory plain = PlaintextSuite.factory(Fields.MERSENNE_61, 1);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Engine(plain, network.channel(0), EngineConfig.defaults().withGroups(2)));
    assertTrue(e.getMessage().startsWith(plain.name() + " cannot run sessions in groups"));
    assertThrows(IllegalArgumentException.class, () -> EngineConfig.defaults().withGroups(0));
    assertThrows(IllegalArgumentException.class, () -> EngineConfig.defaults().withGroups(64));
  }

  @Test
  void partiesWithDifferentGroups_failNamingTheSetting() {
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                LocalParties.builder(PARTIES)
                    .suite(groupable())
                    .configs(
                        p -> EngineConfig.defaults().withInsecureSeed(3).withGroups(p == 2 ? 3 : 2))
                    .deadline(Duration.ofSeconds(60))
                    .open()
                    .runSessions(SessionsTest.distanceSessions(SESSIONS), 100));
    assertTrue(
        e.getCause().getMessage().contains("session groups")
            || e.getCause().getMessage().contains("other session groups"),
        e.getCause().getMessage());
  }
}
