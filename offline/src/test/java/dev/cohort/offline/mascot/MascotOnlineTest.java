package dev.cohort.offline.mascot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.lib.Comparison;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.offline.ot.InsecureIdealOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SPDZ online phase on MASCOT material: the parties' engines draw triples, input bits and
 * random bits from their own MascotPreprocessing, which makes them over a second in-memory network
 * (ideal OTs), and the results match plaintext arithmetic.
 */
class MascotOnlineTest {

  private static final Field F = Fields.MERSENNE_127;
  private static final int BITS = 16;

  @ParameterizedTest(name = "{0} parties")
  @ValueSource(ints = {2, 3})
  void computation_onMascotMaterial_matchesPlaintext(int n) {
    InMemoryNetwork offline = new InMemoryNetwork(n, Duration.ofSeconds(60));
    Channel[] channels = new Channel[n];
    PreprocessingSource mascot =
        (field, party, parties) ->
            new MascotPreprocessing(
                field,
                channels[party] = offline.channel(party),
                new InsecureIdealOts(99, 1, party, parties),
                new InsecureIdealOts(99, 2, party, parties),
                Prg.seeded(500 + party));
    SpdzConfig config = SpdzConfig.of(F, mascot, "MASCOT, ideal OTs");
    long[] x = {3, -120, 7, 30_000, -5};
    long[] y = {4, 11, 7, -30_000, -6};
    List<Result<long[]>> results =
        new LocalParties(
                n,
                SpdzSuite.factory(config),
                EngineConfig.defaults().withInsecureSeed(17),
                Duration.ofSeconds(60))
            .runEach(
                p ->
                    b -> {
                      SecretVector a = b.input(0, p == 0 ? x : null, x.length, BITS);
                      SecretVector c = b.input(n - 1, p == n - 1 ? y : null, y.length, BITS);
                      SecretVector product = b.add(b.mul(a, c), a);
                      SecretVector less = Comparison.lessThan(b, a, c, BITS);
                      return b.open(b.concat(product, less));
                    });
    long[] expected = new long[2 * x.length];
    for (int i = 0; i < x.length; i++) {
      expected[i] = x[i] * y[i] + x[i];
      expected[x.length + i] = x[i] < y[i] ? 1 : 0;
    }
    for (Result<long[]> r : results) {
      assertArrayEquals(expected, r.value());
    }
    for (Channel c : channels) { // the material came from MASCOT runs, not from elsewhere
      assertTrue(c.stats().totalBytesSent() > 0, "P" + c.myId() + " made no material");
    }
  }
}
