package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.parallel.Workers;
import dev.cohort.testing.RecordingSuite;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kernels split over threads: with 2 and 4 threads every party holds exactly the shares and MAC
 * shares it holds with one, the MAC checks (whose sums are split too, with coefficients from
 * positioned copies of the generator) pass, and the opened results match a BigInteger reference.
 * Batches are large enough to split into four chunks, and not a multiple of the chunk count or a
 * block.
 */
class SpdzThreadsTest {

  private static final int M = 4 * ShareExchange.MIN_CHUNK + 4 * SpdzKernels.BEAVER_BLOCK + 3;

  @ParameterizedTest(name = "n={0} field={1}")
  @CsvSource({"2, m61", "2, m127", "3, m61", "3, m127"})
  void multiply_twoAndFourThreads_sameSharesAsOneThread_matchesReference(
      int parties, String fieldName) {
    Field field = Fields.byName(fieldName);
    Random random = new Random(20240601L + parties);
    long[] xs = new long[M];
    long[] ys = new long[M];
    long[] zs = new long[M];
    for (int i = 0; i < M; i++) {
      xs[i] = random.nextInt(1 << 26) - (1 << 25); // |x·y·z| < 2^59: no wrap-around in either field
      ys[i] = random.nextInt(1 << 26) - (1 << 25);
      zs[i] = random.nextInt(1 << 10) - (1 << 9);
    }
    Computation<long[][]> c =
        b -> {
          SecretVector x = b.input(0, xs, M, 32);
          SecretVector y = b.input(1, ys, M, 32);
          SecretVector z = b.input(parties - 1, zs, M, 32);
          var xy = b.open(b.mul(x, y));
          var xyz = b.open(b.mul(b.mul(x, y), z));
          return () -> new long[][] {xy.get(), xyz.get()};
        };
    List<List<List<long[]>>> shares = new ArrayList<>();
    for (int threads : new int[] {1, 2, 4}) {
      List<List<long[]>> records = new ArrayList<>();
      SpdzConfig config = SpdzConfig.insecureDealer(field, 5).withThreads(threads);
      var suite = RecordingSuite.wrap(SpdzSuite.factory(config), records, parties);
      List<Result<long[][]>> results =
          new LocalParties(
                  parties,
                  suite,
                  EngineConfig.defaults().withInsecureSeed(11),
                  Duration.ofSeconds(120))
              .run(c);
      for (Result<long[][]> r : results) {
        for (int i = 0; i < M; i++) {
          BigInteger xy = BigInteger.valueOf(xs[i]).multiply(BigInteger.valueOf(ys[i]));
          assertEquals(xy.longValueExact(), r.value()[0][i], "x·y at " + i);
          BigInteger xyz = xy.multiply(BigInteger.valueOf(zs[i]));
          assertEquals(xyz.longValueExact(), r.value()[1][i], "x·y·z at " + i);
        }
      }
      shares.add(records);
    }
    for (int threads = 1; threads < 3; threads++) {
      for (int p = 0; p < parties; p++) {
        List<long[]> one = shares.get(0).get(p);
        List<long[]> many = shares.get(threads).get(p);
        // inputs (P1's two in one gate when n = 2), x·y (once) and x·y·z; shares and MACs
        assertEquals(parties == 2 ? 8 : 10, one.size());
        assertEquals(one.size(), many.size());
        for (int g = 0; g < one.size(); g++) {
          assertArrayEquals(one.get(g), many.get(g), "P" + p + " gate " + g);
        }
      }
    }
    assertEquals(4, Workers.of(4).chunks(M, ShareExchange.MIN_CHUNK), "the batch splits in four");
  }

  /**
   * The range check of the peers' shares runs inside the split sums: a share outside the field in
   * the last chunk (a worker's) still aborts every honest party, naming the sender and the element,
   * as the one-thread check does.
   */
  @ParameterizedTest(name = "n={0} field={1} cheater=P{2}")
  @CsvSource({"2, m61, 1", "3, m61, 2", "2, m127, 0", "3, m127, 1"})
  void multiply_valueOutsideFieldInLastChunk_twoThreads_abortsNamingSenderAndElement(
      int parties, String fieldName, int cheater) {
    Field field = Fields.byName(fieldName);
    int element = 2 * M - 5; // among the e of the last chunk: d at [0, M), e at [M, 2M)
    Tamper tamper =
        (message, peer, words, count) -> {
          if (message == Tamper.Message.MULTIPLY) {
            java.util.Arrays.fill(
                words, element * field.words(), (element + 1) * field.words(), -1L); // >= p
          }
        };
    SpdzConfig config = SpdzConfig.insecureDealer(field, 13).withThreads(2);
    long[] xs = new long[M];
    java.util.Arrays.fill(xs, 3);
    Computation<long[]> c =
        b -> b.open(b.mul(b.input(0, xs, M, 32), b.input(parties - 1, xs, M, 32)));
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                new LocalParties(
                        parties,
                        CorruptParty.factory(config, cheater, tamper),
                        EngineConfig.defaults().withInsecureSeed(13),
                        Duration.ofSeconds(120))
                    .run(c));
    CorruptParty.assertHonestPartiesAbort(
        e,
        parties,
        cheater,
        "P"
            + cheater
            + " sent a value outside the field "
            + field.name()
            + " (element "
            + element
            + " of "
            + 2 * M
            + ")");
    assertEquals(2, Workers.of(2).chunks(M, ShareExchange.MIN_CHUNK), "the batch splits in two");
  }
}
