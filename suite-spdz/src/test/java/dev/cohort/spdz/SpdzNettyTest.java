package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.testing.RandomCircuit;
import dev.cohort.transport.tls.Certificates;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** SPDZ over the Netty transport with mutual TLS on loopback: random circuits match plaintext. */
class SpdzNettyTest {

  private static final RandomCircuit.Shape SHAPE = new RandomCircuit.Shape(20, 4, 24, 3);
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @TempDir static Path keys;

  @BeforeAll
  static void generateKeys() {
    Certificates.generate(keys, 5); // the first n of them serve every case
  }

  static Stream<Arguments> fieldsAndParties() {
    List<Arguments> cases = new ArrayList<>();
    for (Field f : List.of(Fields.MERSENNE_61, Fields.MERSENNE_127)) {
      for (int n : new int[] {2, 3, 5}) {
        cases.add(Arguments.of(Named.of(f.name(), f), n));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, {1} parties")
  @MethodSource("fieldsAndParties")
  void randomCircuit_overTls_everyPartyOpensPlaintextValues(Field f, int n) {
    long seed = 40 + n;
    RandomCircuit circuit = RandomCircuit.generate(seed, n, SHAPE);
    BigInteger[] expected = circuit.expected(f.modulus());
    List<Result<BigInteger[]>> results;
    try (LocalParties parties =
        LocalParties.builder(n)
            .suite(SpdzSuite.insecureFactory(f, seed))
            .config(EngineConfig.defaults().withInsecureSeed(seed))
            .mesh(
                Loopback.tls(Transport.NETTY, keys)
                    .with(o -> o.withConnectTimeout(TIMEOUT).withReceiveTimeout(TIMEOUT)))
            .deadline(TIMEOUT.multipliedBy(3))
            .open()) {
      results = parties.run(circuit.computation());
    }
    assertEquals(n, results.size());
    for (Result<BigInteger[]> r : results) {
      BigInteger[] actual = r.value().clone();
      for (int i = 0; i < actual.length; i++) {
        actual[i] = actual[i].mod(f.modulus());
      }
      assertArrayEquals(expected, actual, "P" + r.metrics().party());
      assertEquals(
          circuit.multiplications(),
          r.metrics().gates().getOrDefault("multiply", 0L),
          "multiply gates");
    }
  }
}
