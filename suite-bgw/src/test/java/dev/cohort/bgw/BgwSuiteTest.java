package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.RandomCircuit;
import dev.cohort.testing.SuiteContractTest;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The suite contract on BGW, plus random circuits at every (n, t) worth covering. */
class BgwSuiteTest extends SuiteContractTest {

  @Override
  protected SuiteFactory suite(Field field, int parties) {
    return BgwSuite.factory(field);
  }

  @Override
  protected int[] partyCounts() {
    return new int[] {3, 4, 5, 6, 7, 11};
  }

  /**
   * (n, t, PRSS limit): even and odd n, thresholds below the maximum, and both ways of making
   * random elements (PRSS, and dealing when the limit is 0).
   */
  static Stream<Arguments> thresholds() {
    return Stream.of(
        Arguments.of(3, 1, 64),
        Arguments.of(4, 1, 64),
        Arguments.of(5, 1, 64),
        Arguments.of(5, 2, 0),
        Arguments.of(6, 2, 64),
        Arguments.of(7, 2, 64),
        Arguments.of(7, 3, 64),
        Arguments.of(11, 3, 64),
        Arguments.of(11, 5, 64),
        Arguments.of(4, 1, 0));
  }

  @ParameterizedTest(name = "n={0} t={1} prssLimit={2}")
  @MethodSource("thresholds")
  void randomCircuit_anyThreshold_matchesPlaintext(int n, int t, int prssLimit) {
    for (Field field : List.of(Fields.MERSENNE_61, Fields.MERSENNE_127)) {
      long seed = 1000L * n + t;
      RandomCircuit circuit = RandomCircuit.generate(seed, n, RandomCircuit.Shape.DEFAULT);
      BigInteger[] expected = circuit.expected(field.modulus());
      List<Result<BigInteger[]>> results =
          new LocalParties(
                  n,
                  BgwSuite.factory(new BgwConfig(field, t, prssLimit)),
                  EngineConfig.defaults().withInsecureSeed(seed),
                  Duration.ofSeconds(60))
              .run(circuit.computation());
      for (Result<BigInteger[]> r : results) {
        BigInteger[] actual = r.value().clone();
        for (int i = 0; i < actual.length; i++) {
          actual[i] = actual[i].mod(field.modulus());
        }
        assertArrayEquals(expected, actual, "n=" + n + " t=" + t + " " + field.name());
        assertEquals(circuit.multiplications(), r.metrics().elements().get("multiply"));
      }
    }
  }
}
