package dev.cohort.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.NetworkException;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.random.Prg;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.suite.plaintext.PlaintextSuite;
import dev.cohort.testing.ForwardingSuiteFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The harness itself, over the in-memory transport: what one-shot and standing parties share and
 * keep, which party a failure names, and that closing stops every thread it started.
 */
class LocalPartiesTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final SuiteFactory PLAINTEXT = PlaintextSuite.factory(Fields.MERSENNE_61, 1);

  /** P0 inputs 6, P1 inputs 7, everyone learns the product. */
  private static final Computation<Long> PRODUCT =
      b ->
          b.open(b.mul(b.input(0, b.myId() == 0 ? 6 : 0, 8), b.input(1, b.myId() == 1 ? 7 : 0, 8)));

  private static LocalParties.Builder plaintext(int parties) {
    return LocalParties.builder(parties)
        .suite(PLAINTEXT)
        .config(EngineConfig.defaults().withInsecureSeed(3))
        .mesh(Mesh.inMemory(TIMEOUT))
        .deadline(TIMEOUT);
  }

  @Test
  void run_threeParties_everyPartyGetsTheProductInPartyOrder() {
    try (LocalParties parties = plaintext(3).open()) {
      List<Result<Long>> results = parties.run(PRODUCT);
      assertEquals(3, results.size());
      for (int p = 0; p < 3; p++) {
        assertEquals(42L, results.get(p).value());
        assertEquals(p, results.get(p).metrics().party());
      }
    }
  }

  @Test
  void oneShot_twoRuns_freshEnginesOnFreshThreads() {
    try (LocalParties parties = plaintext(3).open()) {
      List<Engine> first = parties.onEngines((p, engine) -> engine);
      List<Engine> second = parties.onEngines((p, engine) -> engine);
      List<Thread> threads = parties.onChannels((p, channel) -> Thread.currentThread());
      for (int p = 0; p < 3; p++) {
        assertNotSame(first.get(p), second.get(p), "P" + p);
        assertNotSame(Thread.currentThread(), threads.get(p), "P" + p + " has a thread of its own");
        assertEquals("cohort-P" + p, threads.get(p).getName());
      }
    }
  }

  @Test
  void standing_twoRuns_sameEnginesAndThreadsP0OnTheCaller() throws Exception {
    List<Thread> threads;
    try (LocalParties parties = plaintext(3).standing().open()) {
      List<Engine> first = parties.onEngines((p, engine) -> engine);
      assertEquals(42L, parties.run(PRODUCT).get(2).value());
      List<Engine> second = parties.onEngines((p, engine) -> engine);
      threads = parties.onChannels((p, channel) -> Thread.currentThread());
      List<Thread> again = parties.onChannels((p, channel) -> Thread.currentThread());
      assertSame(Thread.currentThread(), threads.get(0), "P0 runs on the caller's thread");
      for (int p = 0; p < 3; p++) {
        assertSame(first.get(p), second.get(p), "P" + p + "'s engine lives across runs");
        assertSame(threads.get(p), again.get(p), "P" + p + "'s thread lives across runs");
      }
    }
    for (int p = 1; p < 3; p++) {
      threads.get(p).join(5000);
      assertFalse(threads.get(p).isAlive(), "close stops P" + p + "'s thread");
    }
  }

  @Test
  void suites_perParty_eachPartyGetsItsOwn() {
    int[] createdFor = {-1, -1, -1};
    SuiteFactory[] factories = new SuiteFactory[3];
    for (int f = 0; f < 3; f++) {
      factories[f] = recording(f, createdFor);
    }
    try (LocalParties parties = plaintext(3).suites(p -> factories[p]).open()) {
      parties.run(PRODUCT);
    }
    for (int p = 0; p < 3; p++) {
      assertEquals(p, createdFor[p], "P" + p + "'s suite came from factory " + p);
    }
  }

  /** The plaintext suite, recording in {@code createdFor[factory]} for which party it made one. */
  private static SuiteFactory recording(int factory, int[] createdFor) {
    return new ForwardingSuiteFactory(PLAINTEXT) {
      @Override
      public Suite create(int party, int parties, Prg prg) {
        createdFor[factory] = party;
        return super.create(party, parties, prg);
      }
    };
  }

  @Test
  void run_oneEngineFails_itIsNamedFirstAndTheOthersSuppressed() {
    // P2's input does not fit in 8 bits: its engine aborts, and P0 and P1 fail on the abort.
    Computation<Long> computation =
        b -> b.open(b.add(b.input(0, 1, 8), b.input(2, b.myId() == 2 ? 1000 : 0, 8)));
    try (LocalParties parties = plaintext(3).standing().open()) {
      PartyFailedException failure =
          assertThrows(PartyFailedException.class, () -> parties.run(computation));
      assertEquals(2, failure.party().index(), failure.getMessage());
      assertTrue(failure.getMessage().startsWith("P2 failed: "), failure.getMessage());
      assertInstanceOf(IllegalArgumentException.class, failure.getCause());
      List<PartyFailedException> all = failure.failures();
      assertEquals(3, all.size());
      assertEquals(0, all.get(1).party().index(), "the others in party order");
      assertEquals(1, all.get(2).party().index());
      for (PartyFailedException other : all.subList(1, 3)) {
        assertInstanceOf(NetworkException.class, other.getCause());
        assertTrue(other.getCause().getMessage().contains("P2"), other.getCause().getMessage());
      }
    }
  }

  @Test
  void onChannels_taskThrows_failureNamesThePartyAndKeepsTheCause() {
    IllegalStateException boom = new IllegalStateException("boom");
    try (LocalParties parties = plaintext(2).open()) {
      PartyFailedException failure =
          assertThrows(
              PartyFailedException.class,
              () ->
                  parties.onChannels(
                      (p, channel) -> {
                        if (p == 1) {
                          throw boom;
                        }
                        return p;
                      }));
      assertEquals("P1 failed: boom", failure.getMessage());
      assertSame(boom, failure.getCause());
      assertEquals(1, failure.failures().size());
    }
  }

  @Test
  void run_failedExchangeBeforeTheCause_theCauseIsNamedFirst() throws Exception {
    // P0 refuses (say, its material) and closes its channel before its exception is recorded; P1
    // sees the closed channel first. The report must name P0's reason, not P1's echo of it.
    CountDownLatch p1Failed = new CountDownLatch(1);
    try (PartyThreads threads = PartyThreads.oneShot(2, Duration.ofSeconds(30))) {
      PartyFailedException failure =
          assertThrows(
              PartyFailedException.class,
              () ->
                  threads.run(
                      p -> {
                        if (p == 1) {
                          threads.failing(1); // gives up first, as a failing engine says
                          p1Failed.countDown();
                          throw new dev.cohort.api.NetworkException(
                              "P0 closed its connection before round 0");
                        }
                        assertTrue(p1Failed.await(10, TimeUnit.SECONDS));
                        throw new IllegalArgumentException("P0's use record is missing");
                      }));
      assertEquals(0, failure.party().index(), failure.getMessage());
      assertEquals("P0 failed: P0's use record is missing", failure.getMessage());
      assertEquals(1, failure.failures().get(1).party().index());
    }
  }

  @Test
  void run_partyStillRunningAtTheDeadline_isNamedAfterThePartyThatThrew() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    try (PartyThreads threads = PartyThreads.oneShot(2, Duration.ofMillis(200))) {
      long start = System.nanoTime();
      PartyFailedException failure =
          assertThrows(
              PartyFailedException.class,
              () ->
                  threads.run(
                      p -> {
                        if (p == 0) {
                          return never.await(60, TimeUnit.SECONDS);
                        }
                        throw new IllegalStateException("P1 gives up");
                      }));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 190 && millis < 5000, millis + " ms");
      assertEquals(1, failure.party().index(), "the party that threw ranks first");
      PartyFailedException late = failure.failures().get(1);
      assertEquals(0, late.party().index());
      assertEquals("P0 failed: did not finish within PT0.2S", late.getMessage());
    }
  }

  @Test
  void closed_runs_areRefused() {
    LocalParties parties = plaintext(2).open();
    parties.close();
    parties.close(); // closing twice is harmless
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> parties.run(PRODUCT));
    assertEquals("these parties are closed", e.getMessage());
  }

  @Test
  void onEngines_withoutASuite_isRefused() {
    try (LocalParties parties = LocalParties.builder(2).open()) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> parties.run(PRODUCT));
      assertEquals("these parties have no suite: give the builder one", e.getMessage());
      assertEquals(List.of(0, 1), parties.onChannels((p, channel) -> channel.myId()));
    }
  }

  @Test
  void mesh_ofOneShotParties_isRefused() {
    try (LocalParties parties = plaintext(2).open()) {
      assertThrows(IllegalStateException.class, parties::mesh);
    }
    try (LocalParties parties = plaintext(2).standing().open()) {
      assertEquals(2, parties.mesh().parties());
    }
  }

  @Test
  void builder_suiteThatCannotRunTheParties_isRefusedAndTheMeshReleased() {
    boolean[] closed = {false};
    Mesh.Factory meshes =
        new Mesh.Factory() {
          @Override
          public Mesh bind(int parties) {
            throw new AssertionError("never bound");
          }

          @Override
          public void close() {
            closed[0] = true;
          }
        };
    assertThrows(
        IllegalArgumentException.class,
        () -> LocalParties.builder(0).suite(PLAINTEXT).mesh(meshes).open());
    SuiteFactory none =
        new SuiteFactory() {
          @Override
          public String name() {
            return "none";
          }

          @Override
          public Field field() {
            return PLAINTEXT.field();
          }

          @Override
          public void validate(int parties) {
            throw new IllegalArgumentException("needs 5 parties, not " + parties);
          }

          @Override
          public Suite create(int party, int parties, Prg prg) {
            throw new AssertionError("never created");
          }
        };
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> LocalParties.builder(2).suite(none).mesh(meshes).standing().open());
    assertEquals("needs 5 parties, not 2", e.getMessage());
    assertTrue(closed[0], "the parties own the mesh factory from open on");
  }
}
