package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Random;
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

  /**
   * Rounds of one size in a row: each multiplication alone in its round keeps the frame it receives
   * as its result and sums its own shares into the column the previous one handed back (old values
   * in it), and a round of two multiplications takes the fallback; on one thread and split over
   * two. The first product is opened last, after its column went on to serve the later rounds, so a
   * result that shared memory with a recycled column would show.
   */
  @ParameterizedTest(name = "n={0} field={1} threads={2}")
  @CsvSource({"3, m61, 1", "3, m127, 1", "3, m61, 2", "5, m61, 1", "5, m127, 2"})
  void multiplyChain_recycledColumns_matchesBigIntegerReference(
      int parties, String fieldName, int threads) {
    Field field = Fields.byName(fieldName);
    int m = 2 * BgwSuite.MIN_CHUNK + BgwReshare.BLOCK + 5;
    Random random = new Random(77L + parties + threads);
    long[] xs = new long[m];
    long[] ys = new long[m];
    for (int i = 0; i < m; i++) {
      xs[i] = random.nextInt(1 << 20) - (1 << 19);
      ys[i] = random.nextInt(1 << 9) - (1 << 8);
    }
    Computation<long[][]> c =
        b -> {
          SecretVector x = b.input(0, xs, m, 32);
          SecretVector y = b.input(1, ys, m, 32);
          SecretVector xy = b.mul(x, y); // alone in its round
          SecretVector xyy = b.mul(xy, y); // with x·x in one round
          SecretVector xx = b.mul(x, x);
          SecretVector xyyy = b.mul(xyy, y); // alone again
          SecretVector last = b.mul(xyyy, b.known(1)); // alone again
          var opened = b.open(last);
          var squares = b.open(xx);
          var first = b.open(xy);
          return () -> new long[][] {opened.get(), squares.get(), first.get()};
        };
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(11);
    BgwConfig bgw = BgwConfig.of(field).withThreads(threads);
    List<Result<long[][]>> results =
        new LocalParties(parties, BgwSuite.factory(bgw), config, Duration.ofSeconds(60)).run(c);
    BigInteger p = field.modulus();
    for (Result<long[][]> r : results) {
      for (int i = 0; i < m; i++) {
        BigInteger x = BigInteger.valueOf(xs[i]);
        BigInteger y = BigInteger.valueOf(ys[i]);
        assertEquals(signed(x.multiply(y.pow(3)), p), r.value()[0][i], "x·y³");
        assertEquals(signed(x.pow(2), p), r.value()[1][i], "x²");
        assertEquals(signed(x.multiply(y), p), r.value()[2][i], "x·y");
      }
    }
  }

  /** The symmetric representative of {@code v} mod {@code p}, as the opening decodes it. */
  private static long signed(BigInteger v, BigInteger p) {
    BigInteger r = v.mod(p);
    return (r.compareTo(p.shiftRight(1)) > 0 ? r.subtract(p) : r).longValueExact();
  }
}
