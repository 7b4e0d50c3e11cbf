package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.SuiteFactory;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parties whose dealer files stand at different positions (one crashed after it recorded a draw the
 * others never made) agree on the furthest position and compute correctly; files of different
 * dealings and a party that lies about its position are caught before any material is used.
 */
class PositionAgreementTest {

  private static final Field M127 = Fields.MERSENNE_127;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int N = 3;
  private static final DealerFiles.Amounts AMOUNTS = new DealerFiles.Amounts(50, 10, 10, 20, 400);

  /** P0 inputs x, P2 inputs y (20 bits each); everyone learns x·y + 5. */
  private static Computation<Long> product(long x, long y) {
    return b -> b.open(b.add(b.mul(b.input(0, x, 20), b.input(N - 1, y, 20)), 5));
  }

  private static long expected(long x, long y) {
    return BigInteger.valueOf(x)
        .multiply(BigInteger.valueOf(y))
        .add(BigInteger.valueOf(5))
        .mod(M127.modulus())
        .longValueExact();
  }

  private static <T> List<Result<T>> run(SuiteFactory suite, long seed, Computation<T> c) {
    return new LocalParties(N, suite, EngineConfig.defaults().withInsecureSeed(seed), TIMEOUT)
        .run(c);
  }

  private static long[] used(Path directory, int party) {
    return FilePreprocessing.open(DealerFiles.file(directory, party), M127, party, N)
        .positions()
        .used();
  }

  @Test
  void partiesApart_afterACrash_continueFromTheFurthestAndComputeCorrectly(@TempDir Path dir) {
    DealerFiles.writeInsecure(dir, M127, N, AMOUNTS, 61);
    SplittableRandom random = new SplittableRandom(61);
    long x = random.nextLong(1 << 19);
    long y = random.nextLong(1 << 19);
    assertEquals(
        expected(x, y),
        run(SpdzSuite.factory(SpdzConfig.dealerFiles(M127, dir)), 1, product(x, y)).get(0).value());
    long[] afterFirst = used(dir, 0);
    // P1 drew (and recorded) 3 triples and 7 of P2's input bits, then crashed; P2 drew one mask
    // of P0. Without agreement the parties would now use different material.
    FilePreprocessing p1 = FilePreprocessing.open(DealerFiles.file(dir, 1), M127, 1, N);
    p1.triples(3);
    p1.inputBits(2, 7);
    FilePreprocessing.open(DealerFiles.file(dir, 2), M127, 2, N).inputMasks(0, 1);

    x = random.nextLong(1 << 19);
    y = random.nextLong(1 << 19);
    List<Result<Long>> second =
        run(SpdzSuite.factory(SpdzConfig.dealerFiles(M127, dir)), 2, product(x, y));

    for (Result<Long> r : second) {
      assertEquals(expected(x, y), r.value());
    }
    // Every party skipped what any party drew: the same positions everywhere, each kind moved
    // by this run's use (1 triple, 20 + 20 input bits) plus what was skipped.
    long[] p0 = used(dir, 0);
    for (int p = 1; p < N; p++) {
      assertArrayEquals(p0, used(dir, p), "P" + p);
    }
    int inputBitsOfP2 = 3 + N + 2;
    assertEquals(afterFirst[0] + 3 + 1, p0[0], "triples: 3 skipped, 1 used");
    assertEquals(afterFirst[inputBitsOfP2] + 7 + 20, p0[inputBitsOfP2], "P2's input bits");
    assertEquals(afterFirst[3] + 1, p0[3], "P0's masks: 1 skipped");
  }

  @Test
  void filesOfAnotherDealing_refusedNamingTheParty(@TempDir Path dir) {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    DealerFiles.writeInsecure(a, M127, N, AMOUNTS, 62);
    DealerFiles.writeInsecure(b, M127, N, AMOUNTS, 62); // the same material, another dealing
    SuiteFactory mixed =
        SpdzSuite.factory(
            SpdzConfig.of(
                M127,
                (field, party, parties) ->
                    FilePreprocessing.open(
                        DealerFiles.file(party == 2 ? b : a, party), field, party, parties),
                "spdz(files of two dealings)"));

    PartyFailedException e =
        assertThrows(PartyFailedException.class, () -> run(mixed, 3, product(4, 5)));

    PartyFailedException p0 = CorruptParty.failureOf(e, 0);
    assertNotNull(p0, e.getMessage());
    assertInstanceOf(IllegalArgumentException.class, p0.getCause());
    assertTrue(
        p0.getCause()
            .getMessage()
            .startsWith("P2's SPDZ preprocessing is of another dealing than P0's"),
        p0.getCause().getMessage());
    assertArrayEquals(new long[PositionAgreement.kinds(N)], used(a, 0), "nothing drawn");
  }

  @Test
  void partyClaimingMoreThanTheFilesHold_refusedBeforeAnyUse(@TempDir Path dir) {
    DealerFiles.writeInsecure(dir, M127, N, AMOUNTS, 63);
    // P1 lies: it claims to have drawn 1000 triples, more than the 50 dealt.
    PreprocessingSource lying =
        (field, party, parties) -> {
          FilePreprocessing real =
              FilePreprocessing.open(DealerFiles.file(dir, party), field, party, parties);
          if (party != 1) {
            return real;
          }
          return new ForwardingPreprocessing(real) {
            @Override
            public Positions positions() {
              Positions p = real.positions();
              long[] used = p.used().clone();
              used[0] = 1000;
              return new Positions(p.dealing(), used);
            }
          };
        };

    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                run(
                    SpdzSuite.factory(SpdzConfig.of(M127, lying, "spdz(lying P1)")),
                    4,
                    product(4, 5)));

    PartyFailedException p0 = CorruptParty.failureOf(e, 0);
    assertNotNull(p0, e.getMessage());
    assertInstanceOf(MaterialException.class, p0.getCause());
    assertTrue(
        p0.getCause().getMessage().contains("cannot skip to 1000 triples: it holds 50"),
        p0.getCause().getMessage());
    assertArrayEquals(new long[PositionAgreement.kinds(N)], used(dir, 0), "P0 drew nothing");
  }
}
