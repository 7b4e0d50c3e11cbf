package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.testing.RandomCircuit;
import dev.cohort.transport.TestKeys;
import dev.cohort.transport.tls.TlsProvider;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both TLS implementations (BoringSSL through Netty's tcnative, the JDK's own) carry a computation,
 * also side by side: parties on different platforms may end up with different ones.
 */
@ExtendWith(LeakCheck.class)
class TlsProviderTest {

  @TempDir static Path keyDirectory;
  private static TestKeys keys;

  @BeforeAll
  static void generateKeys() {
    keys = TestKeys.generate(keyDirectory, 3);
  }

  @Test
  void boringSsl_isBundledForThisPlatform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    boolean x86 = arch.equals("amd64") || arch.equals("x86_64");
    boolean arm = arch.equals("aarch64");
    boolean bundled =
        (os.contains("linux") && (x86 || arm))
            || (os.contains("mac") && (x86 || arm))
            || (os.contains("windows") && x86);
    // The network module ships tcnative for exactly these platforms: AUTO must find it there.
    assertEquals(bundled ? "BoringSSL" : "JDK", TlsProvider.AUTO.implementation(), os + " " + arch);
    assertEquals("JDK", TlsProvider.JDK.implementation());
  }

  @Test
  void randomCircuit_partiesOnDifferentTlsImplementations_matchesPlaintext() {
    RandomCircuit circuit = RandomCircuit.generate(77, 3, RandomCircuit.Shape.DEFAULT);
    TlsProvider[] providers = {TlsProvider.JDK, TlsProvider.AUTO, TlsProvider.JDK};
    List<Result<BigInteger[]>> results;
    try (LocalParties parties =
        LocalParties.builder(3)
            .suite(BgwSuite.factory(Fields.MERSENNE_61))
            .config(EngineConfig.defaults().withInsecureSeed(77))
            .mesh(Loopback.of(Transport.NETTY, p -> keys.options(p, providers[p])))
            .open()) {
      results = parties.run(circuit.computation());
    }
    BigInteger modulus = Fields.MERSENNE_61.modulus();
    BigInteger[] expected = circuit.expected(modulus);
    for (Result<BigInteger[]> r : results) {
      BigInteger[] actual = r.value().clone();
      for (int i = 0; i < actual.length; i++) {
        actual[i] = actual[i].mod(modulus);
      }
      assertArrayEquals(expected, actual, "P" + r.metrics().party());
    }
  }
}
