package dev.cohort.offline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.net.InMemoryNetwork;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole offline phase with its real parts (elliptic-curve base OTs, the KOS extension, MASCOT),
 * parties as threads: the material reconstructs to what it claims under the parties' joint MAC key,
 * checked here with BigInteger, and an online phase fed in the background matches plaintext.
 */
class OfflinePhaseTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** What every party drew, in party order. */
  private record Drawn(
      long[] alpha,
      SpdzPreprocessing.Triples triples,
      Shares bits,
      SpdzPreprocessing.InputMasks masks) {}

  @ParameterizedTest(name = "{0} parties")
  @ValueSource(ints = {2, 3})
  void start_realOts_materialIsAuthenticatedAndCorrect(int n) {
    Field field = Fields.MERSENNE_127;
    BigInteger p = field.modulus();
    InMemoryNetwork net = new InMemoryNetwork(n, TIMEOUT);
    List<CompletableFuture<Drawn>> runs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      var channel = net.channel(i);
      runs.add(
          CompletableFuture.supplyAsync(
              () -> {
                SpdzPreprocessing m = OfflinePhase.start(field, channel);
                return new Drawn(
                    m.macKeyShare(), m.triples(300), m.randomBits(64), m.inputMasks(n - 1, 20));
              }));
    }
    List<Drawn> drawn = new ArrayList<>();
    for (CompletableFuture<Drawn> r : runs) {
      drawn.add(r.join());
    }
    BigInteger alpha = BigInteger.ZERO;
    for (Drawn d : drawn) {
      alpha = alpha.add(field.toBigInteger(d.alpha(), 0));
    }
    alpha = alpha.mod(p);
    for (int j = 0; j < 300; j++) {
      BigInteger a = value(field, drawn, j, d -> d.triples().a(), alpha);
      BigInteger b = value(field, drawn, j, d -> d.triples().b(), alpha);
      BigInteger c = value(field, drawn, j, d -> d.triples().c(), alpha);
      assertEquals(a.multiply(b).mod(p), c, "triple " + j);
    }
    int ones = 0;
    for (int j = 0; j < 64; j++) {
      BigInteger bit = value(field, drawn, j, Drawn::bits, alpha);
      assertTrue(
          bit.equals(BigInteger.ZERO) || bit.equals(BigInteger.ONE), "bit " + j + ": " + bit);
      ones += bit.intValue();
    }
    assertTrue(ones > 10 && ones < 54, "64 random bits with " + ones + " ones");
    for (int j = 0; j < 20; j++) {
      BigInteger r = value(field, drawn, j, d -> d.masks().shares(), alpha);
      assertEquals(r, field.toBigInteger(drawn.get(n - 1).masks().values(), j), "mask " + j);
    }
    for (int i = 0; i < n - 1; i++) {
      assertNull(drawn.get(i).masks().values(), "only the owner learns its masks");
    }
  }

  @ParameterizedTest(name = "{0} parties")
  @ValueSource(ints = {2, 3})
  void inBackground_onlinePhaseMatchesPlaintext(int n) {
    Field field = Fields.MERSENNE_127;
    InMemoryNetwork offline = new InMemoryNetwork(n, TIMEOUT);
    try (OfflinePhase.Background source = OfflinePhase.inBackground(offline::channel)) {
      RandomCircuit circuit = RandomCircuit.generate(21, n, new RandomCircuit.Shape(30, 6, 20, 3));
      BigInteger[] expected = circuit.expected(field.modulus());
      List<Result<BigInteger[]>> results =
          new LocalParties(
                  n,
                  SpdzSuite.factory(
                      SpdzConfig.of(field, source, "offline phase in the background")),
                  EngineConfig.defaults().withInsecureSeed(21),
                  TIMEOUT)
              .run(circuit.computation());
      for (Result<BigInteger[]> r : results) {
        BigInteger[] actual = r.value().clone();
        for (int i = 0; i < actual.length; i++) {
          actual[i] = actual[i].mod(field.modulus());
        }
        assertArrayEquals(expected, actual);
      }
      assertTrue(source.waitNanos() > 0, "the first draws of each kind wait for the producers");
      // The run's metrics report each party's waits: they add up to what the producers counted.
      long reported = 0;
      for (Result<BigInteger[]> r : results) {
        long waited = r.metrics().materialWaitNanos();
        assertTrue(waited > 0, "P" + r.metrics().party() + " reports its wait: " + waited);
        assertTrue(waited <= r.metrics().wallNanos(), "a wait falls within the run");
        assertTrue(r.metrics().report().contains("ms for material"), r.metrics().report());
        reported += waited;
      }
      assertEquals(source.waitNanos(), reported);
      assertTrue(source.triplesMade() >= n * OfflinePhase.TRIPLE_BATCH, "a batch ahead");
    }
  }

  /** Item {@code j} of a sharing, reconstructed, after checking its MAC under {@code alpha}. */
  private static BigInteger value(
      Field field,
      List<Drawn> drawn,
      int j,
      java.util.function.Function<Drawn, Shares> column,
      BigInteger alpha) {
    BigInteger p = field.modulus();
    BigInteger x = BigInteger.ZERO;
    BigInteger mac = BigInteger.ZERO;
    for (Drawn d : drawn) {
      Shares s = column.apply(d);
      x = x.add(field.toBigInteger(s.share, j));
      mac = mac.add(field.toBigInteger(s.mac, j));
    }
    x = x.mod(p);
    assertEquals(alpha.multiply(x).mod(p), mac.mod(p), "MAC of item " + j);
    return x;
  }
}
