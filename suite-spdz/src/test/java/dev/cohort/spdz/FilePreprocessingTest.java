package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preprocessing files read as streams: millions of triples through a fixed buffer, and every kind
 * of damaged or mismatched file refused with a message that says what is wrong.
 */
class FilePreprocessingTest {

  private static final Field M61 = Fields.MERSENNE_61;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final DealerFiles.Amounts SMALL = new DealerFiles.Amounts(50, 5, 5, 10, 10);
  private static final int HEADER_BYTES_M61 = 8 * (6 + 1 + 7); // words = 1: 5 counts, id (2)

  private static LocalParties parties(int n, PreprocessingSource source, long seed) {
    SpdzConfig config = SpdzConfig.of(M61, source, "files");
    return new LocalParties(
        n, SpdzSuite.factory(config), EngineConfig.defaults().withInsecureSeed(seed), TIMEOUT);
  }

  // ---- streaming ----

  @Test
  void twoMillionTriples_twentyRoundsOfHundredThousand_readThroughFixedBuffer(
      @TempDir Path directory) {
    int length = 100_000;
    int rounds = 20;
    int bits = 2; // inputs in [-2, 2): each costs 2 input bits of its owner, no triple
    long inputBits = (long) bits * length;
    long triples = (long) length * rounds;
    DealerFiles.writeInsecure(
        directory, M61, 2, new DealerFiles.Amounts(triples, 0, 0, 0, inputBits), 11);
    List<FilePreprocessing> readers = Collections.synchronizedList(new ArrayList<>());
    PreprocessingSource source =
        (field, party, parties) -> {
          FilePreprocessing reader =
              FilePreprocessing.open(DealerFiles.file(directory, party), field, party, parties);
          readers.add(reader);
          return reader;
        };
    Random random = new Random(11);
    long[] x = new long[length];
    long[] y = new long[length];
    for (int i = 0; i < length; i++) {
      x[i] = random.nextInt(1 << bits) - (1 << bits - 1);
      y[i] = random.nextInt(1 << bits) - (1 << bits - 1);
    }
    Computation<long[]> power =
        b -> {
          SecretVector xs = b.input(0, b.myId() == 0 ? x : null, length, bits);
          SecretVector ys = b.input(1, b.myId() == 1 ? y : null, length, bits);
          SecretVector z = xs;
          for (int r = 0; r < rounds; r++) {
            z = b.mul(z, ys);
          }
          return b.open(z);
        };

    List<Result<long[]>> results = parties(2, source, 11).run(power);

    BigInteger p = M61.modulus();
    for (int i = 0; i < length; i += 997) {
      BigInteger expected =
          BigInteger.valueOf(x[i]).multiply(BigInteger.valueOf(y[i]).pow(rounds)).mod(p);
      for (Result<long[]> r : results) {
        assertEquals(expected, BigInteger.valueOf(r.value()[i]).mod(p), "element " + i);
      }
    }
    assertEquals(2, readers.size());
    // triples (6 columns), the other owner's input bits (2), this party's own (3), α_i
    long materialBytes = 8 * (6 * triples + 2 * inputBits + 3L * inputBits + 1);
    for (FilePreprocessing reader : readers) {
      // Every byte of the 96 MB of triples went through one 64 KiB buffer, and the file was
      // closed once its material was used up.
      assertEquals(materialBytes, reader.bytesRead());
      assertTrue(reader.bytesRead() > 1000L * FilePreprocessing.BUFFER_BYTES);
      assertFalse(reader.isOpen(), "closed once used up");
    }
  }

  @Test
  void draws_followEachOtherInTheFile_andCloseWhenUsedUp(@TempDir Path directory) {
    DealerFiles.writeInsecure(directory, M61, 2, new DealerFiles.Amounts(9000, 0, 0, 0, 0), 12);
    FilePreprocessing reader = FilePreprocessing.open(DealerFiles.file(directory, 1), M61, 1, 2);
    assertTrue(reader.isOpen());
    long[] c = new long[9000];
    int at = 0;
    for (int count : new int[] {1, 8191, 0, 808}) { // across the buffer's 8192-word chunks
      SpdzPreprocessing.Triples t = reader.triples(count);
      System.arraycopy(t.c().share, 0, c, at, count);
      at += count;
    }
    assertFalse(reader.isOpen());
    Path copy = directory.resolve("copy");
    DealerFiles.writeInsecure(copy, M61, 2, new DealerFiles.Amounts(9000, 0, 0, 0, 0), 12);
    FilePreprocessing fresh = FilePreprocessing.open(DealerFiles.file(copy, 1), M61, 1, 2);
    assertArrayEquals(c, fresh.triples(9000).c().share);
    // A reader opened later starts after what was used: here, nothing is left.
    FilePreprocessing again = FilePreprocessing.open(DealerFiles.file(directory, 1), M61, 1, 2);
    assertFalse(again.isOpen());
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> again.triples(1));
    assertEquals(
        "SPDZ preprocessing file "
            + DealerFiles.file(directory, 1)
            + " ran out of triples: 1 needed, 0 of 9000 left",
        e.getMessage());
  }

  // ---- no reuse across readers (restarts) ----

  private static final DealerFiles.Amounts MIXED = new DealerFiles.Amounts(1000, 20, 20, 30, 40);

  private static long[] slice(long[] a, int from, int to) {
    return java.util.Arrays.copyOfRange(a, from, to);
  }

  private static void assertSharesEqual(
      dev.cohort.suite.Shares expected, int from, int to, dev.cohort.suite.Shares actual) {
    assertArrayEquals(slice(expected.share, from, to), actual.share);
    assertArrayEquals(slice(expected.mac, from, to), actual.mac);
  }

  private static long[] usedRecord(Path file) throws IOException {
    ByteBuffer b =
        ByteBuffer.wrap(Files.readAllBytes(FilePreprocessing.usedFile(file)))
            .order(ByteOrder.LITTLE_ENDIAN);
    long[] longs = new long[b.capacity() / 8];
    b.asLongBuffer().get(longs);
    return longs;
  }

  @Test
  void readerOpenedLater_continuesWhereTheEarlierStopped_everyKind(@TempDir Path directory)
      throws IOException {
    DealerFiles.writeInsecure(directory.resolve("run"), M61, 3, MIXED, 18);
    DealerFiles.writeInsecure(directory.resolve("reference"), M61, 3, MIXED, 18); // same seed
    Path file = DealerFiles.file(directory.resolve("run"), 1);
    FilePreprocessing all =
        FilePreprocessing.open(DealerFiles.file(directory.resolve("reference"), 1), M61, 1, 3);
    SpdzPreprocessing.Triples t = all.triples(1000);
    dev.cohort.suite.Shares r = all.randomElements(20);
    dev.cohort.suite.Shares bits = all.randomBits(20);
    SpdzPreprocessing.InputMasks m0 = all.inputMasks(0, 30);
    SpdzPreprocessing.InputMasks m1 = all.inputMasks(1, 30);
    SpdzPreprocessing.InputMasks b1 = all.inputBits(1, 40);
    SpdzPreprocessing.InputMasks b2 = all.inputBits(2, 40);

    FilePreprocessing first = FilePreprocessing.open(file, M61, 1, 3);
    SpdzPreprocessing.Triples t1 = first.triples(300);
    first.triples(0);
    SpdzPreprocessing.InputMasks m01 = first.inputMasks(0, 5);
    first.randomBits(7);
    SpdzPreprocessing.InputMasks b21 = first.inputBits(2, 9);
    assertSharesEqual(t.c(), 0, 300, t1.c());
    assertSharesEqual(m0.shares(), 0, 5, m01.shares());
    assertSharesEqual(b2.shares(), 0, 9, b21.shares());
    assertEquals(null, b21.values(), "another owner's input bits have no values here");
    long[] record = usedRecord(file);
    assertEquals(UseRecord.MAGIC, record[0]);
    // version, party, parties, triples, random elements, random bits, masks of P0..P2, input
    // bits of P0..P2
    assertArrayEquals(new long[] {3, 1, 3, 300, 0, 7, 5, 0, 0, 0, 0, 9}, slice(record, 1, 13));
    assertEquals(0, record[15]); // no MAC check in flight
    assertEquals(17, record.length); // ... the id before it, and a checksum

    // As after a restart: a second reader of the same file, the first one abandoned.
    FilePreprocessing second = FilePreprocessing.open(file, M61, 1, 3);
    SpdzPreprocessing.Triples t2 = second.triples(700);
    assertSharesEqual(t.a(), 300, 1000, t2.a());
    assertSharesEqual(t.b(), 300, 1000, t2.b());
    assertSharesEqual(t.c(), 300, 1000, t2.c());
    assertSharesEqual(m0.shares(), 5, 30, second.inputMasks(0, 25).shares());
    SpdzPreprocessing.InputMasks m12 = second.inputMasks(1, 30); // this party's own masks
    assertSharesEqual(m1.shares(), 0, 30, m12.shares());
    assertArrayEquals(m1.values(), m12.values());
    assertSharesEqual(bits, 7, 20, second.randomBits(13));
    assertSharesEqual(b2.shares(), 9, 40, second.inputBits(2, 31).shares());
    SpdzPreprocessing.InputMasks b12 = second.inputBits(1, 40); // this party's own input bits
    assertSharesEqual(b1.shares(), 0, 40, b12.shares());
    assertArrayEquals(b1.values(), b12.values());
    assertSharesEqual(r, 0, 20, second.randomElements(20));

    // Running out counts what earlier readers used.
    FilePreprocessing third = FilePreprocessing.open(file, M61, 1, 3);
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of triples: 1 needed, 0 of 1000 left",
        assertThrows(IllegalStateException.class, () -> third.triples(1)).getMessage());
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of input masks of P0: 1 needed, 0 of 30 left",
        assertThrows(IllegalStateException.class, () -> third.inputMasks(0, 1)).getMessage());
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of input bits of P2: 1 needed, 0 of 40 left",
        assertThrows(IllegalStateException.class, () -> third.inputBits(2, 1)).getMessage());
    assertEquals(30, third.inputMasks(2, 30).shares().share.length);
    assertEquals(40, third.inputBits(0, 40).shares().share.length);
    assertFalse(third.isOpen(), "closed once used up");

    // Dealing again replaces the file and its record: nothing of the new one is used.
    DealerFiles.writeInsecure(directory.resolve("run"), M61, 3, MIXED, 18);
    assertArrayEquals(new long[9], slice(usedRecord(file), 4, 13));
    assertSharesEqual(t.c(), 0, 1000, FilePreprocessing.open(file, M61, 1, 3).triples(1000).c());
  }

  @Test
  void damagedUsedRecord_failsSayingToDealFreshFiles(@TempDir Path directory) throws IOException {
    DealerFiles.writeInsecure(directory, M61, 3, MIXED, 19);
    Path file = DealerFiles.file(directory, 1);
    Path used = FilePreprocessing.usedFile(file);
    assertEquals(directory.resolve("party-1.spdz.used"), used);
    FilePreprocessing.open(file, M61, 1, 3).triples(10);
    byte[] good = Files.readAllBytes(used);
    String advice =
        "): it records how much of "
            + file
            + " earlier runs used, and without it that material could be used twice; deal fresh"
            + " files with 'cohort preprocess'";

    flipByte(used, 8 * 4); // the triples used
    assertEquals(used + " is corrupt (bad checksum" + advice, openFailing(file, M61, 1, 3));

    Files.write(used, java.util.Arrays.copyOf(good, good.length - 8));
    assertEquals(
        used + " is corrupt (it has 128 bytes, not 136" + advice, openFailing(file, M61, 1, 3));

    Path other = FilePreprocessing.usedFile(DealerFiles.file(directory, 0));
    FilePreprocessing.open(DealerFiles.file(directory, 0), M61, 0, 3).triples(1);
    Files.copy(other, used, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertEquals(
        used + " is corrupt (it belongs to P0 of 3 parties" + advice, openFailing(file, M61, 1, 3));

    ByteBuffer tooMany = ByteBuffer.wrap(good.clone()).order(ByteOrder.LITTLE_ENDIAN);
    tooMany.putLong(8 * 4, 2000); // more triples used than the file holds, checksum valid
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(tooMany.array(), 0, good.length - 8);
    tooMany.putLong(good.length - 8, crc.getValue());
    Files.write(used, tooMany.array());
    assertEquals(
        used + " is corrupt (it records 2000 triples used of 1000 in the file" + advice,
        openFailing(file, M61, 1, 3));

    Files.write(used, good); // restored
    FilePreprocessing reader = FilePreprocessing.open(file, M61, 1, 3);
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of triples: 991 needed, 990 of 1000 left",
        assertThrows(IllegalStateException.class, () -> reader.triples(991)).getMessage());
  }

  // ---- exhaustion ----

  @Test
  void inputMasks_runOut_failNamingFileOwnerAndAmounts(@TempDir Path directory) {
    DealerFiles.writeInsecure(directory, M61, 3, SMALL, 13);
    Path file = DealerFiles.file(directory, 2);
    FilePreprocessing reader = FilePreprocessing.open(file, M61, 2, 3);
    reader.inputMasks(0, 6);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> reader.inputMasks(0, 5));
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of input masks of P0: 5 needed, 4 of 10 left",
        e.getMessage());
    reader.inputBits(1, 10);
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of input bits of P1: 1 needed, 0 of 10 left",
        assertThrows(IllegalStateException.class, () -> reader.inputBits(1, 1)).getMessage());
    IllegalStateException bits =
        assertThrows(IllegalStateException.class, () -> reader.randomBits(6));
    assertEquals(
        "SPDZ preprocessing file " + file + " ran out of random bits: 6 needed, 5 of 5 left",
        bits.getMessage());
  }

  // ---- damaged and mismatched files ----

  private static Path dealt(Path directory) {
    DealerFiles.writeInsecure(directory, M61, 3, SMALL, 14);
    return DealerFiles.file(directory, 0);
  }

  private static String openFailing(Path file, Field field, int party, int parties) {
    return assertThrows(
            IllegalArgumentException.class,
            () -> FilePreprocessing.open(file, field, party, parties))
        .getMessage();
  }

  private static void putLong(Path file, long position, long value) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value);
      channel.write(b, position);
    }
  }

  private static void flipByte(Path file, long position) throws IOException {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      channel.read(b, position);
      b.put(0, (byte) (b.get(0) ^ 0x40)).rewind();
      channel.write(b, position);
    }
  }

  @Test
  void truncatedFile_failsNamingTheSizes(@TempDir Path directory) throws IOException {
    Path file = dealt(directory);
    long size = Files.size(file);
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(size - 8);
    }
    assertEquals(
        file
            + " is truncated or corrupt: its header describes "
            + size
            + " bytes, the file has "
            + (size - 8),
        openFailing(file, M61, 0, 3));
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(20);
    }
    assertEquals(
        file + " is not a SPDZ preprocessing file (too short)", openFailing(file, M61, 0, 3));
  }

  @Test
  void flippedHeaderBytes_failClearly(@TempDir Path directory) throws IOException {
    Path file = dealt(directory);
    flipByte(file, 3); // magic
    assertEquals(
        file + " is not a SPDZ preprocessing file (bad magic)", openFailing(file, M61, 0, 3));
    flipByte(file, 3);
    flipByte(file, 8); // version: 3 ^ 0x40
    assertEquals(
        file
            + " is a version-67 SPDZ preprocessing file; this reader takes version 3; deal fresh"
            + " files with 'cohort preprocess'",
        openFailing(file, M61, 0, 3));
    flipByte(file, 8);
    putLong(file, 8, 2); // version 2: a file dealt before input bits existed
    assertEquals(
        file
            + " is a version-2 SPDZ preprocessing file; this reader takes version 3; deal fresh"
            + " files with 'cohort preprocess'",
        openFailing(file, M61, 0, 3));
    putLong(file, 8, 3);
    flipByte(file, 8 * 6 + 2); // a byte of the modulus
    assertEquals(
        file + " was dealt over a 61-bit field, not over m61 (61 bits)",
        openFailing(file, M61, 0, 3));
    flipByte(file, 8 * 6 + 2);
    flipByte(file, 8 * 7 + 1); // the triple count: 50 + 2^14
    long size = Files.size(file);
    assertEquals(
        file
            + " is truncated or corrupt: its header describes "
            + (size + 6L * (1 << 14) * 8)
            + " bytes, the file has "
            + size,
        openFailing(file, M61, 0, 3));
    flipByte(file, 8 * 7 + 1);
    flipByte(file, 8 * 7 + 7); // the triple count's sign
    assertEquals(
        file + " is corrupt: its header holds impossible material counts",
        openFailing(file, M61, 0, 3));
    flipByte(file, 8 * 7 + 7);
    FilePreprocessing.open(file, M61, 0, 3); // restored
  }

  @Test
  void wrongPartyPartiesFieldOrNoFile_failNamingWhatWasExpected(@TempDir Path directory) {
    Path file = dealt(directory);
    assertEquals(
        file + " holds the preprocessing of P0 of 3 parties, not of P2 of 3",
        openFailing(file, M61, 2, 3));
    assertEquals(
        file + " holds the preprocessing of P0 of 3 parties, not of P0 of 2",
        openFailing(file, M61, 0, 2));
    assertEquals(
        file + " was dealt over a 61-bit field, not over m127 (127 bits)",
        openFailing(file, Fields.MERSENNE_127, 0, 3));
    Path missing = directory.resolve("party-7.spdz");
    assertEquals(
        "SPDZ preprocessing file " + missing + " does not exist", openFailing(missing, M61, 0, 3));
  }

  /** 8-bit inputs: 8 input bits of each owner of {@link #SMALL}, and one triple for the product. */
  private static Computation<Long> product() {
    return b -> b.open(b.mul(b.input(0, 123, 8), b.input(1, -77, 8)));
  }

  private static void assertEveryPartyFailsTheMacCheck(PartyFailedException e, int n) {
    List<Throwable> causes = new ArrayList<>();
    causes.add(e.getCause());
    for (Throwable other : e.getSuppressed()) {
      causes.add(other.getCause());
    }
    assertEquals(n, causes.size(), "every party fails: " + e.getMessage());
    for (Throwable cause : causes) {
      assertInstanceOf(AbortException.class, cause, () -> "cause: " + cause);
      assertEquals(
          // inputs open nothing: the first check, before the output, covers the product's d and e
          "MAC check failed (check 0, 2 opened values): the opened values do not match their"
              + " MACs; a party sent inconsistent shares or the preprocessing is corrupt",
          cause.getMessage());
    }
  }

  @Test
  void macKeyShareChanged_everyPartyFailsTheMacCheck(@TempDir Path directory) throws IOException {
    DealerFiles.writeInsecure(directory, M61, 3, SMALL, 15);
    flipByte(DealerFiles.file(directory, 1), HEADER_BYTES_M61); // α_1, still below p
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> parties(3, DealerFiles.source(directory), 15).run(product()));
    assertEveryPartyFailsTheMacCheck(e, 3);
  }

  @Test
  void fileFromAnotherDealing_refusedByEveryPartyBeforeAnyUse(@TempDir Path directory)
      throws IOException {
    DealerFiles.writeInsecure(directory.resolve("a"), M61, 3, SMALL, 16);
    DealerFiles.writeInsecure(directory.resolve("b"), M61, 3, SMALL, 17);
    for (Path file :
        List.of(
            DealerFiles.file(directory.resolve("b"), 2),
            FilePreprocessing.usedFile(DealerFiles.file(directory.resolve("b"), 2)))) {
      // a file with its own record: each file is fine alone, the dealings differ
      Files.copy(
          file,
          directory.resolve("a").resolve(file.getFileName()),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> parties(3, DealerFiles.source(directory.resolve("a")), 16).run(product()));
    // The set-up round compares the dealings' ids (PositionAgreement): no material is drawn and
    // no MAC check runs, so nothing is burned.
    for (int p = 0; p < 3; p++) {
      PartyFailedException failure = CorruptParty.failureOf(e, p);
      if (failure != null) {
        assertInstanceOf(IllegalArgumentException.class, failure.getCause(), "P" + p);
        assertTrue(
            failure.getCause().getMessage().contains("SPDZ preprocessing is of another dealing"),
            failure.getCause().getMessage());
      }
    }
    PartyFailedException p0 = CorruptParty.failureOf(e, 0);
    assertNotNull(p0, e.getMessage());
    assertTrue(
        p0.getCause().getMessage().startsWith("P2's SPDZ preprocessing is of another dealing"),
        p0.getCause().getMessage());
    for (int p = 0; p < 2; p++) {
      assertArrayEquals(
          new long[PositionAgreement.kinds(3)],
          FilePreprocessing.open(DealerFiles.file(directory.resolve("a"), p), M61, p, 3)
              .positions()
              .used(),
          "P" + p + " drew nothing");
    }
  }

  @Test
  void littleEndianHeader_isWhatTheTestsAssume(@TempDir Path directory) throws IOException {
    Path file = dealt(directory);
    ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
    assertEquals(DealerFiles.MAGIC, header.getLong(0));
    assertEquals(50, header.getLong(8 * 7));
  }
}
