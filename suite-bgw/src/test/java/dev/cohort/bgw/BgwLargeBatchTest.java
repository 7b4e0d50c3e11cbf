package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Batches larger than {@link BgwReshare#BLOCK}, with a partial last block: dealing and receiving go
 * block by block, and every party must draw its seeded shares and read its frames in the same
 * blocks.
 */
class BgwLargeBatchTest {

  @ParameterizedTest(name = "n={0} field={1}")
  @CsvSource({"3, m61", "3, m127", "5, m61", "4, m127"})
  void inputMultiplyOpen_largerThanABlock_matchesPlaintext(int parties, String fieldName) {
    Field field = Fields.byName(fieldName);
    int m = 2 * BgwReshare.BLOCK + 37;
    long[] xs = new long[m];
    long[] ys = new long[m];
    long[] products = new long[m];
    long[] sums = new long[m];
    for (int i = 0; i < m; i++) {
      xs[i] = i * 7919L - 5000;
      ys[i] = (i % 1000) - 300L;
      products[i] = xs[i] * ys[i];
      sums[i] = xs[i] + ys[i];
    }
    Computation<long[][]> c =
        b -> {
          SecretVector x = b.input(0, xs, m, 32);
          SecretVector y = b.input(1, ys, m, 32);
          var p = b.open(b.mul(x, y));
          var s = b.open(b.add(x, y));
          return () -> new long[][] {p.get(), s.get()};
        };
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(3);
    List<Result<long[][]>> results =
        new LocalParties(parties, BgwSuite.factory(field), config, Duration.ofSeconds(60)).run(c);
    for (Result<long[][]> r : results) {
      assertArrayEquals(products, r.value()[0]);
      assertArrayEquals(sums, r.value()[1]);
    }
  }
}
