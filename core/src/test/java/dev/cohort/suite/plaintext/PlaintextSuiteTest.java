package dev.cohort.suite.plaintext;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.RandomCircuit;
import dev.cohort.testing.SuiteContractTest;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The plaintext oracle meets the suite contract. Its inputs are broadcast in one round; multiply
 * and open are local, so they cost no round.
 */
class PlaintextSuiteTest extends SuiteContractTest {

  @Override
  protected SuiteFactory suite(Field field, int parties) {
    return PlaintextSuite.factory(field, 42);
  }

  @Override
  protected int[] partyCounts() {
    return new int[] {2, 3, 5};
  }

  @Override
  protected int roundsPerMultiply() {
    return 0;
  }

  @Override
  protected int roundsPerOpen() {
    return 0;
  }

  @Override
  protected int roundsPerInput() {
    return 1;
  }

  @Test
  void addAndSubAtOffsets_readElementsInPlace_andRejectRangesOutside() {
    Field f = Fields.MERSENNE_127;
    Suite suite = PlaintextSuite.factory(f, 42).create(0, 3, Prg.seeded(1));
    long[] a = new long[6 * 2];
    long[] b = new long[4 * 2];
    for (int i = 0; i < 6; i++) {
      f.encode(BigInteger.valueOf(100 + i), a, i);
    }
    for (int i = 0; i < 4; i++) {
      f.encode(BigInteger.valueOf(7 * i + 1), b, i);
    }
    Shares sa = suite.constant(a, 6);
    Shares sb = suite.constant(b, 4);
    Shares sum = suite.add(sa, 3, sb, 1, 3); // a[3..5] + b[1..3]
    Shares diff = suite.sub(sa, 3, sb, 1, 3);
    for (int i = 0; i < 3; i++) {
      assertEquals(BigInteger.valueOf(103 + i + 7 * (i + 1) + 1), f.toBigInteger(sum.share, i));
      assertEquals(
          BigInteger.valueOf(103 + i - 7 * (i + 1) - 1).mod(f.modulus()),
          f.toBigInteger(diff.share, i));
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> suite.add(sa, 4, sb, 0, 3));
    assertEquals(
        "elements [4, 7), [0, 3) and [0, 3) lie outside vectors of 6, 4 and 3", e.getMessage());
    Shares into = suite.constant(new long[5 * 2], 5);
    suite.subInto(sa, 0, sb, 2, into, 3, 2); // a[0..1] - b[2..3] into elements 3 and 4
    assertEquals(BigInteger.ZERO, f.toBigInteger(into.share, 2));
    assertEquals(BigInteger.valueOf(100 - 15), f.toBigInteger(into.share, 3));
    assertEquals(BigInteger.valueOf(101 - 22), f.toBigInteger(into.share, 4));
    e = assertThrows(IllegalArgumentException.class, () -> suite.addInto(sa, 0, sb, 0, into, 4, 2));
    assertEquals(
        "elements [0, 2), [0, 2) and [4, 6) lie outside vectors of 6, 4 and 5", e.getMessage());
  }

  @Test
  void validate_zeroParties_throwsNamingTheCount() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> PlaintextSuite.factory(Fields.MERSENNE_61, 1).validate(0));
    assertEquals("parties (0) must be >= 1", e.getMessage());
  }

  @Test
  void randomCircuit_oneParty_matchesPlaintext() {
    Field f = Fields.MERSENNE_61;
    RandomCircuit circuit = RandomCircuit.generate(3, 1, RandomCircuit.Shape.DEFAULT);
    List<Result<BigInteger[]>> results = run(f, 1, 3, party -> circuit.computation());
    BigInteger[] expected = circuit.expected(f.modulus());
    assertCongruent(expected, results.get(0).value(), f, "one party");
    assertEquals(0, results.get(0).metrics().totalBytesSent());
  }

  @Test
  void input_ownerBroadcasts_sendsEachValueToEveryPeerOnce() {
    Field f = Fields.MERSENNE_127; // two words, 16 bytes per element
    List<Result<Long>> results =
        new LocalParties(3, suite(f, 3), EngineConfig.defaults().withInsecureSeed(1), TIMEOUT)
            .run(
                b -> {
                  Secret a = b.input(1, 10, BITS);
                  long[] values = b.myId() == 1 ? new long[] {1, 2, 3, 4} : null;
                  SecretVector v = b.input(1, values, 4, BITS);
                  return b.open(b.add(b.mul(a, a), b.sum(v)));
                });
    for (Result<Long> r : results) {
      assertEquals(110L, r.value());
      RunMetrics m = r.metrics();
      assertEquals(1, m.rounds());
      // P1 sends its five elements to each peer; the others send one empty frame per peer.
      long[] expectedBytes = m.party() == 1 ? new long[] {5 * 16, 0, 5 * 16} : new long[3];
      long[] expectedFrames = new long[] {1, 1, 1};
      expectedFrames[m.party()] = 0;
      assertArrayEquals(expectedBytes, m.bytesSent(), "bytes sent by P" + m.party());
      assertArrayEquals(expectedFrames, m.framesSent(), "frames sent by P" + m.party());
    }
  }

  @Test
  void random_differentEngineSeeds_sameCommonValues() {
    // The oracle's random values come from the factory's common seed, not the engine's seed.
    Field f = Fields.MERSENNE_61;
    List<Result<long[]>> first = run(f, 2, 1, party -> b -> b.open(b.random(5)));
    List<Result<long[]>> second = run(f, 2, 2, party -> b -> b.open(b.random(5)));
    assertArrayEquals(first.get(0).value(), second.get(1).value());
  }
}
