package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Computation;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.SuiteFactory;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Preprocessing material is never used twice, and never with a MAC key that a failed check may have
 * revealed: a corrupt party that makes a check fail, and a user who deletes or swaps a use record,
 * each find the next run refused.
 */
class MaterialReuseAttackTest {

  private static final Field M127 = Fields.MERSENNE_127;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final DealerFiles.Amounts AMOUNTS = new DealerFiles.Amounts(200, 10, 10, 40, 200);
  private static final int N = 3;
  private static final int CHEATER = 1;

  private static final String FAILED = "a MAC check failed on the SPDZ";
  private static final String INTERRUPTED = "a MAC check was interrupted on the SPDZ";

  private static SpdzConfig files(Path directory) {
    return SpdzConfig.dealerFiles(M127, directory);
  }

  /** P{@link #CHEATER} adds one to the first element of every {@code target} message it sends. */
  private static SuiteFactory cheating(SpdzConfig config, Tamper.Message target) {
    return CorruptParty.factory(config, CHEATER, CorruptParty.add(M127, 1, target, -1));
  }

  private static <T> List<Result<T>> run(SuiteFactory suite, long seed, Computation<T> c) {
    return new LocalParties(N, suite, EngineConfig.defaults().withInsecureSeed(seed), TIMEOUT)
        .run(c);
  }

  /** P0 inputs x, P2 inputs y; everyone learns x·y + 5. */
  private static Computation<Long> product(long x, long y) {
    return b -> b.open(b.add(b.mul(b.input(0, x, 20), b.input(N - 1, y, 20)), 5));
  }

  private static void assertProduct(List<Result<Long>> results, long x, long y) {
    BigInteger expected =
        BigInteger.valueOf(x).multiply(BigInteger.valueOf(y)).add(BigInteger.valueOf(5));
    expected = expected.mod(M127.modulus());
    for (Result<Long> r : results) {
      assertEquals(expected, BigInteger.valueOf(r.value()).mod(M127.modulus()));
    }
  }

  /** Every party but the cheater failed with a cause of {@code type} that {@code ok} accepts. */
  private static void assertHonestPartiesFail(
      PartyFailedException e, Class<?> type, Predicate<String> ok) {
    CorruptParty.assertHonestPartiesFail(e, N, CHEATER, type, ok);
  }

  private static long checkInFlightMark(Path file) throws IOException {
    ByteBuffer b =
        ByteBuffer.wrap(Files.readAllBytes(FilePreprocessing.usedFile(file)))
            .order(ByteOrder.LITTLE_ENDIAN);
    return b.getLong(b.capacity() - 16);
  }

  // ---- finding 3: a failed MAC check burns the key ----

  @ParameterizedTest
  @EnumSource(
      value = Tamper.Message.class,
      names = {"CHECK_SIGMA", "MULTIPLY"})
  void restart_afterCheckFailedOnDealerFiles_honestPartiesRefuseTheBurnedKey(
      Tamper.Message target, @TempDir Path directory) throws IOException {
    DealerFiles.writeInsecure(directory, M127, N, AMOUNTS, 41);
    assertProduct(run(SpdzSuite.factory(files(directory)), 41, product(1000, 3)), 1000, 3);

    // The cheater makes a check fail after every honest party has opened its σ_i to it.
    PartyFailedException cheated =
        assertThrows(
            PartyFailedException.class,
            () -> run(cheating(files(directory), target), 42, product(1000, 3)));
    assertHonestPartiesFail(cheated, AbortException.class, m -> m.startsWith("MAC check failed"));
    for (int p : new int[] {0, 2}) {
      assertEquals(2, checkInFlightMark(DealerFiles.file(directory, p)), "P" + p + ": failed");
    }

    // The documented restart on the same files: refused, the key may be known to the cheater.
    PartyFailedException restarted =
        assertThrows(
            PartyFailedException.class,
            () -> run(SpdzSuite.factory(files(directory)), 43, product(1000, 3)));
    assertHonestPartiesFail(
        restarted,
        IllegalStateException.class,
        m ->
            m.startsWith(FAILED + " preprocessing in " + directory.resolve("party-"))
                && m.endsWith(
                    " says so): the values the check opened may have revealed the MAC key to the"
                        + " party that cheated, so this material must never be used again; deal"
                        + " fresh files with 'cohort preprocess'"));
  }

  @Test
  void restart_afterCheckFailedWithInProcessDealer_sameSourceRefusesHonestParties() {
    SpdzConfig config = SpdzConfig.insecureDealer(M127, 44);
    assertProduct(run(SpdzSuite.factory(config), 44, product(7, -8)), 7, -8);
    assertProduct(run(SpdzSuite.factory(config), 45, product(7, -8)), 7, -8); // passed: reusable

    PartyFailedException cheated =
        assertThrows(
            PartyFailedException.class,
            () -> run(cheating(config, Tamper.Message.CHECK_SIGMA), 46, product(7, -8)));
    assertHonestPartiesFail(cheated, AbortException.class, m -> m.startsWith("MAC check failed"));

    PartyFailedException restarted =
        assertThrows(
            PartyFailedException.class, () -> run(SpdzSuite.factory(config), 47, product(7, -8)));
    assertHonestPartiesFail(
        restarted,
        IllegalStateException.class,
        m ->
            m.matches(
                "a MAC check of P[02] failed \\(or was interrupted\\) with this in-process"
                    + " dealer's MAC key: the key may be known to a cheating party, so this source"
                    + " will not deal it again; use fresh preprocessing \\(a new dealer seed, or"
                    + " files dealt with 'cohort preprocess'\\)"));
  }

  @Test
  void reader_sigmaRevealedAndCheckNeverPassed_nextReaderRefused(@TempDir Path directory) {
    DealerFiles.writeInsecure(directory, M127, 2, AMOUNTS, 48);
    Path file = DealerFiles.file(directory, 1);
    FilePreprocessing passed = FilePreprocessing.open(file, M127, 1, 2);
    passed.triples(3);
    passed.beforeMacReveal();
    passed.triples(2); // drawing while the check is in flight keeps the mark
    passed.macCheckPassed();
    FilePreprocessing interrupted = FilePreprocessing.open(file, M127, 1, 2);
    interrupted.inputMasks(0, 4);
    interrupted.beforeMacReveal(); // σ_1 left; the run dies before the check ends

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> FilePreprocessing.open(file, M127, 1, 2));
    assertEquals(
        INTERRUPTED
            + " preprocessing in "
            + file
            + " (its use record "
            + FilePreprocessing.usedFile(file)
            + " marks a check in flight: this party had revealed its check value when it, or a"
            + " peer, stopped before the check's result was known): a peer that cheated and then"
            + " stopped may know the MAC key, so this material must never be used again; deal"
            + " fresh files with 'cohort preprocess'",
        e.getMessage());
    DealerFiles.writeInsecure(directory, M127, 2, AMOUNTS, 48); // fresh material: accepted
    assertEquals(3, FilePreprocessing.open(file, M127, 1, 2).triples(3).a().length);
  }

  // ---- finding 6: a missing or foreign use record is refused ----

  @Test
  void rerun_useRecordDeleted_refusedInsteadOfReusingMasks(@TempDir Path directory)
      throws IOException {
    DealerFiles.writeInsecure(directory, M127, N, AMOUNTS, 49);
    assertProduct(run(SpdzSuite.factory(files(directory)), 49, product(12, 34)), 12, 34);
    Path used = FilePreprocessing.usedFile(DealerFiles.file(directory, 0));
    Files.delete(used);

    // Without the record P0 would draw its first input mask again: x1 − r and x2 − r opened.
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> run(SpdzSuite.factory(files(directory)), 50, product(56, 34)));
    // P0 refuses; the others then fail as P0 leaves, in either order
    PartyFailedException p0 = CorruptParty.failureOf(e, 0);
    assertNotNull(p0, "P0 failed: " + e.getMessage());
    assertInstanceOf(IllegalArgumentException.class, p0.getCause());
    assertEquals(
        used
            + " is missing: it records how much of "
            + DealerFiles.file(directory, 0)
            + " earlier runs used (the dealer creates it with the file), and without it that"
            + " material could be used twice; deal fresh files with 'cohort preprocess'",
        p0.getCause().getMessage());
  }

  @Test
  void open_useRecordOfAnotherDealing_refusedEvenWithTheSameSeed(@TempDir Path directory)
      throws IOException {
    Path a = directory.resolve("a");
    Path b = directory.resolve("b");
    DealerFiles.writeInsecure(a, M127, N, AMOUNTS, 51);
    DealerFiles.writeInsecure(b, M127, N, AMOUNTS, 51); // the same material, another dealing
    Path file = DealerFiles.file(a, 1);
    FilePreprocessing.open(file, M127, 1, N).triples(100);
    FilePreprocessing.open(DealerFiles.file(b, 1), M127, 1, N).triples(1);
    Files.copy(
        FilePreprocessing.usedFile(DealerFiles.file(b, 1)),
        FilePreprocessing.usedFile(file),
        StandardCopyOption.REPLACE_EXISTING);

    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> FilePreprocessing.open(file, M127, 1, N));
    assertEquals(
        FilePreprocessing.usedFile(file)
            + " belongs to another dealing than "
            + file
            + " (their ids differ), so it does not say how much of this file was used; deal"
            + " fresh files with 'cohort preprocess'",
        e.getMessage());
  }

  // ---- finding 7: dealer files are owner-only from the start ----

  @Test
  void dealerFiles_overOldWorldReadableFiles_createdOwnerOnly(@TempDir Path directory)
      throws IOException {
    assumeTrue(
        directory.getFileSystem().supportedFileAttributeViews().contains("posix"),
        "POSIX permissions only");
    Path out = directory.resolve("pre");
    Files.createDirectories(out);
    for (int p = 0; p < N; p++) { // left by an older dealer, readable by all
      for (Path old :
          List.of(DealerFiles.file(out, p), FilePreprocessing.usedFile(DealerFiles.file(out, p)))) {
        Files.write(old, new byte[] {1});
        Files.setPosixFilePermissions(old, PosixFilePermissions.fromString("rw-r--r--"));
      }
    }
    DealerFiles.write(out, M127, N, AMOUNTS);
    DealerFiles.write(directory.resolve("new").resolve("pre"), M127, N, AMOUNTS);
    FilePreprocessing.open(DealerFiles.file(out, 2), M127, 2, N).triples(1); // record rewritten

    for (Path dir : List.of(out, directory.resolve("new").resolve("pre"))) {
      for (int p = 0; p < N; p++) {
        Path file = DealerFiles.file(dir, p);
        for (Path f : List.of(file, FilePreprocessing.usedFile(file))) {
          assertEquals(
              "rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f + "");
        }
      }
    }
    for (Path created :
        List.of(directory.resolve("new"), directory.resolve("new").resolve("pre"))) {
      assertEquals(
          "rwx------",
          PosixFilePermissions.toString(Files.getPosixFilePermissions(created)),
          created + "");
    }
  }
}
