package dev.cohort.offline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Computation;
import dev.cohort.api.NetworkException;
import dev.cohort.api.Secret;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.spdz.InsecureDealer;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.Shares;
import dev.cohort.testing.RandomCircuit;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * The online phase fed by background producers over a channel of their own: the producers keep in
 * lockstep although the parties consume at their own pace, and the run matches plaintext. The
 * producers here are INSECURE seeded dealers, so that this tests the buffering and the agreement on
 * what to make alone; the offline phase itself is tested with them in {@code OfflinePhaseTest}.
 */
class BackgroundPreprocessingTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static BackgroundPreprocessing[] start(Field field, int n, long seed, int batch) {
    InMemoryNetwork offline = new InMemoryNetwork(n, TIMEOUT);
    BackgroundPreprocessing[] sources = new BackgroundPreprocessing[n];
    for (int p = 0; p < n; p++) {
      SpdzPreprocessing dealer = new InsecureDealer(field, p, n, seed, Long.MAX_VALUE);
      sources[p] =
          new BackgroundPreprocessing(dealer, offline.channel(p), field.words(), batch, batch);
    }
    return sources;
  }

  @Test
  void online_fedInTheBackground_randomCircuitMatchesPlaintext() {
    Field field = Fields.MERSENNE_127;
    int n = 3;
    BackgroundPreprocessing[] sources = start(field, n, 11, 7); // small batches: many refills
    try {
      RandomCircuit circuit = RandomCircuit.generate(12, n, new RandomCircuit.Shape(30, 5, 20, 3));
      BigInteger[] expected = circuit.expected(field.modulus());
      SpdzConfig config =
          SpdzConfig.of(field, (f, party, parties) -> sources[party], "background, test");
      List<Result<BigInteger[]>> results =
          new LocalParties(
                  n,
                  SpdzSuite.factory(config),
                  EngineConfig.defaults().withInsecureSeed(12),
                  TIMEOUT)
              .run(circuit.computation());
      for (Result<BigInteger[]> r : results) {
        BigInteger[] actual = r.value().clone();
        for (int i = 0; i < actual.length; i++) {
          actual[i] = actual[i].mod(field.modulus());
        }
        assertArrayEquals(expected, actual);
      }
      long[] made = sources[0].produced();
      // the first request overall waits (nothing is made before a party asks); a party that asks
      // after the producers delivered what another asked for need not
      assertTrue(
          java.util.Arrays.stream(sources).anyMatch(s -> s.waits() > 0), "the first request waits");
      assertTrue(made[0] > 0, "triples were made: " + java.util.Arrays.toString(made));
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void online_inSessionGroups_fedInTheBackground_matchesReference_waitsCountedOnce() {
    Field field = Fields.MERSENNE_61;
    int n = 3;
    int sessions = 200;
    BackgroundPreprocessing[] sources = start(field, n, 15, 300); // refills within the run
    try {
      SpdzConfig config =
          SpdzConfig.of(field, (f, party, parties) -> sources[party], "background, test");
      List<SessionsResult<Long>> results =
          LocalParties.builder(n)
              .suite(SpdzSuite.factory(config))
              .config(EngineConfig.defaults().withInsecureSeed(16).withGroups(2))
              .deadline(TIMEOUT)
              .open()
              .runSessionsEach(
                  self -> {
                    List<Computation<Long>> list = new ArrayList<>();
                    for (int i = 0; i < sessions; i++) {
                      long mine = 1000L * i + self;
                      list.add(
                          b -> {
                            Secret x = b.input(0, self == 0 ? mine : 0, 32);
                            Secret y = b.input(1, self == 1 ? mine : 0, 32);
                            Secret z = b.input(2, self == 2 ? mine : 0, 32);
                            return b.open(b.add(b.mul(x, y), z));
                          });
                    }
                    return list;
                  },
                  1000);
      for (int p = 0; p < n; p++) {
        for (int i = 0; i < sessions; i++) {
          BigInteger want =
              BigInteger.valueOf(1000L * i)
                  .multiply(BigInteger.valueOf(1000L * i + 1))
                  .add(BigInteger.valueOf(1000L * i + 2));
          assertEquals(want.longValueExact(), results.get(p).values().get(i), "session " + i);
        }
        long waited = results.get(p).metrics().materialWaitNanos();
        assertTrue(
            waited <= sources[p].waitNanos(),
            "P" + p + ": " + waited + " ns waited, the source saw " + sources[p].waitNanos());
      }
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void producersKeepingUp_nextRunNeverWaits_andItsMetricsSaySo() {
    Field field = Fields.MERSENNE_61;
    int n = 3;
    BackgroundPreprocessing[] sources = start(field, n, 13, 1000);
    try {
      RandomCircuit circuit = RandomCircuit.generate(14, n, new RandomCircuit.Shape(20, 4, 10, 3));
      BigInteger[] expected = circuit.expected(field.modulus());
      SpdzConfig config =
          SpdzConfig.of(field, (f, party, parties) -> sources[party], "background, test");
      LocalParties parties =
          new LocalParties(
              n, SpdzSuite.factory(config), EngineConfig.defaults().withInsecureSeed(14), TIMEOUT);
      // Nothing is made before some party asks, so the first request overall waits; a party that
      // asks only after the producers (which all make what any party asked for) delivered the
      // batch does not. Either way its metrics must say what its source saw.
      boolean anyWaited = false;
      for (Result<BigInteger[]> r : parties.run(circuit.computation())) {
        int p = r.metrics().party();
        boolean waited = r.metrics().materialWaitNanos() > 0;
        assertEquals(sources[p].waits() > 0, waited, "P" + p + "'s first run: metrics and source");
        anyWaited |= waited;
      }
      assertTrue(anyWaited, "the first request overall waits for the first batch");
      for (BackgroundPreprocessing s : sources) {
        assertTrue(s.awaitReady(TIMEOUT), "the producers refill a batch of each kind");
      }
      long[] waitsBefore = new long[n];
      for (int p = 0; p < n; p++) {
        waitsBefore[p] = sources[p].waits();
      }
      for (Result<BigInteger[]> r : parties.run(circuit.computation())) {
        BigInteger[] actual = r.value().clone();
        for (int i = 0; i < actual.length; i++) {
          actual[i] = actual[i].mod(field.modulus());
        }
        assertArrayEquals(expected, actual);
        assertEquals(0, r.metrics().materialWaitNanos(), "a run within the ready batch waits not");
        int p = r.metrics().party();
        assertEquals(waitsBefore[p], sources[p].waits());
      }
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void parties_consumingAtDifferentPaces_drawTheSameSharings() throws Exception {
    Field field = Fields.MERSENNE_61;
    int n = 2;
    BackgroundPreprocessing[] sources = start(field, n, 13, 5);
    try {
      // P0 draws in small requests, P1 in one large one: the k-th triple is the same sharing.
      CompletableFuture<Shares[]> p0 =
          CompletableFuture.supplyAsync(
              () -> {
                Shares[] a = new Shares[6];
                for (int i = 0; i < 6; i++) {
                  a[i] = sources[0].triples(3).a();
                }
                return a;
              });
      Shares a1 = sources[1].triples(18).a();
      Shares[] a0 = p0.get();
      // the same sharing: with the dealer's seed, P0's and P1's shares reconstruct its values
      // The producers made batches of 5 (the batch size): the dealer's streams drawn the same way.
      InsecureDealer reference0 = new InsecureDealer(field, 0, n, 13, Long.MAX_VALUE);
      InsecureDealer reference1 = new InsecureDealer(field, 1, n, 13, Long.MAX_VALUE);
      Shares r0 = reference0.triples(0).a();
      Shares r1 = reference1.triples(0).a();
      for (int b = 0; b < 4; b++) {
        r0 = Shares.concat(List.of(r0, reference0.triples(5).a()), field.words());
        r1 = Shares.concat(List.of(r1, reference1.triples(5).a()), field.words());
      }
      for (int i = 0; i < 18; i++) {
        assertEquals(
            field.decodeSigned(r0.share, i),
            field.decodeSigned(a0[i / 3].share, i % 3),
            "P0 item " + i);
        assertEquals(
            field.decodeSigned(r1.share, i), field.decodeSigned(a1.share, i), "P1 item " + i);
      }
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void requestLargerThanABatch_withSomeReady_isFilledInSeveralBatches() {
    BackgroundPreprocessing[] sources = start(Fields.MERSENNE_61, 2, 19, 7);
    try {
      List<CompletableFuture<Integer>> draws = new java.util.ArrayList<>();
      for (BackgroundPreprocessing s : sources) {
        draws.add(
            CompletableFuture.supplyAsync(
                () -> s.triples(3).a().length + s.triples(40).a().length));
      }
      for (CompletableFuture<Integer> d : draws) {
        assertEquals(43, d.orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join());
      }
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void macCheckFailed_stopsTheProducer_laterRequestsFail() {
    BackgroundPreprocessing[] sources = start(Fields.MERSENNE_61, 2, 17, 4);
    try {
      sources[0].macCheckFailed();
      CompletionException e =
          assertThrows(
              CompletionException.class,
              () -> CompletableFuture.supplyAsync(() -> sources[0].triples(100)).join());
      assertInstanceOf(AbortException.class, e.getCause());
      assertTrue(e.getCause().getMessage().contains("MAC check failed"), e.getCause().getMessage());
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void macCheckFailed_withMaterialReady_laterRequestsFailAnyway() {
    BackgroundPreprocessing[] sources = start(Fields.MERSENNE_61, 2, 23, 4);
    try {
      List<CompletableFuture<Integer>> draws = new java.util.ArrayList<>();
      for (BackgroundPreprocessing s : sources) {
        draws.add(CompletableFuture.supplyAsync(() -> s.triples(1).a().length));
      }
      for (CompletableFuture<Integer> d : draws) {
        assertEquals(1, d.orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join());
      }
      // a batch is 4: three triples are ready at P0, and still none may be handed out
      sources[0].macCheckFailed();
      AbortException e = assertThrows(AbortException.class, () -> sources[0].triples(1));
      assertTrue(e.getMessage().contains("MAC check failed"), e.getMessage());
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }

  @Test
  void peerStopsItsProducer_requestNeedingMore_failsNamingThePeer() {
    BackgroundPreprocessing[] sources = start(Fields.MERSENNE_61, 3, 29, 4);
    try {
      sources[2].close();
      CompletionException e =
          assertThrows(
              CompletionException.class,
              () ->
                  CompletableFuture.supplyAsync(() -> sources[0].triples(100))
                      .orTimeout(30, java.util.concurrent.TimeUnit.SECONDS)
                      .join());
      assertInstanceOf(NetworkException.class, e.getCause());
      assertEquals(
          "P2 stopped the background offline phase (it ended its run or failed) while this party"
              + " still needed material",
          e.getCause().getMessage());
    } finally {
      for (BackgroundPreprocessing s : sources) {
        s.close();
      }
    }
  }
}
