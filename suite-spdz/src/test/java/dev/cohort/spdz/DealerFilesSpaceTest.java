package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dealing that does not fit is refused before anything is written, and one whose write fails (a
 * full disk) removes what it wrote and leaves an earlier dealing as it was. The full disk is a real
 * one: a 1 MiB tmpfs mounted for the test (Linux, root; CI runs as root), never a filled disk.
 */
class DealerFilesSpaceTest {

  private static final Field M61 = Fields.MERSENNE_61;

  @Test
  void fileBytes_isHeaderPlusEveryColumn() {
    // 3 parties over m61 (1 word): header 6 + 1 + 7 words; 6 columns of triples, 2 of random
    // elements, 2 of random bits, 2n + 1 = 7 of masks and of input bits, and the key share.
    DealerFiles.Amounts a = new DealerFiles.Amounts(10, 20, 30, 40, 50);
    long expected = 8 * 14 + 8 * (6 * 10 + 2 * 20 + 2 * 30 + 7 * 40 + 7 * 50 + 1);
    assertEquals(expected, DealerFiles.fileBytes(1, 3, a));
    // Over m127 (2 words) the modulus takes one more header word and every element two words.
    assertEquals(8 * 15 + 16 * (expected / 8 - 14), DealerFiles.fileBytes(2, 3, a));
  }

  @Test
  void fileBytes_matchesTheWrittenFiles(@TempDir Path directory) throws IOException {
    DealerFiles.Amounts a = new DealerFiles.Amounts(7, 3, 5, 11, 13);
    List<Path> files = DealerFiles.writeInsecure(directory, Fields.MERSENNE_127, 3, a, 1);
    long total = 0;
    for (Path file : files) {
      assertEquals(DealerFiles.fileBytes(2, 3, a), Files.size(file));
      total += Files.size(file) + Files.size(FilePreprocessing.usedFile(file));
    }
    assertEquals(total, DealerFiles.dealingBytes(Fields.MERSENNE_127, 3, a));
  }

  @Test
  void dealing_overTheLimit_refusedWithItsSizeAndNothingWritten(@TempDir Path directory) {
    Path out = directory.resolve("dealt");
    DealerFiles.Amounts a = new DealerFiles.Amounts(1000, 0, 0, 0, 0);
    long needed = DealerFiles.dealingBytes(M61, 2, a);
    DealingSpace.InsufficientSpaceException e =
        assertThrows(
            DealingSpace.InsufficientSpaceException.class,
            () -> DealerFiles.write(out, M61, 2, a, needed - 1));
    assertEquals(needed, e.needed());
    assertEquals(needed - 1, e.available());
    assertTrue(e.getMessage().contains("(" + needed + " bytes)"), e.getMessage());
    assertFalse(Files.exists(out), "refused up front: not even the directory is created");
    // One byte more and it fits.
    assertEquals(2, DealerFiles.write(out, M61, 2, a, needed).size());
  }

  @Test
  void dealing_largerThanALongCanCount_refused(@TempDir Path directory) {
    DealerFiles.Amounts huge = new DealerFiles.Amounts(Long.MAX_VALUE / 4, 0, 0, 0, 0);
    assertEquals(Long.MAX_VALUE, DealerFiles.dealingBytes(M61, 2, huge));
    DealingSpace.InsufficientSpaceException e =
        assertThrows(
            DealingSpace.InsufficientSpaceException.class,
            () -> DealerFiles.write(directory, M61, 2, huge));
    assertTrue(e.getMessage().startsWith("this dealing needs more than 9.2 EB"), e.getMessage());
    assertEquals(List.of(), list(directory));
  }

  @Test
  void smallFileSystem_dealingLargerThanItsFreeSpace_refusedUpFront(@TempDir Path directory)
      throws Exception {
    try (Tmpfs small = Tmpfs.mount(directory.resolve("small"))) {
      DealerFiles.Amounts twoMegabytes = new DealerFiles.Amounts(25_000, 0, 0, 0, 0);
      DealingSpace.InsufficientSpaceException e =
          assertThrows(
              DealingSpace.InsufficientSpaceException.class,
              () -> DealerFiles.write(small.path, M61, 2, twoMegabytes));
      assertTrue(e.available() <= Tmpfs.BYTES, "free space " + e.available());
      assertTrue(e.getMessage().contains(" free; deal less material"), e.getMessage());
      assertEquals(List.of(), list(small.path));
    }
  }

  @Test
  void smallFileSystem_fullMidWrite_partialFilesRemovedAndEarlierDealingUnchanged(
      @TempDir Path directory) throws Exception {
    try (Tmpfs small = Tmpfs.mount(directory.resolve("small"))) {
      DealerFiles.Amounts fits = new DealerFiles.Amounts(100, 0, 0, 10, 10);
      List<Path> earlier = DealerFiles.writeInsecure(small.path, M61, 2, fits, 3);
      byte[][] before = new byte[4][];
      for (int p = 0; p < 2; p++) {
        before[2 * p] = Files.readAllBytes(earlier.get(p));
        before[2 * p + 1] = Files.readAllBytes(FilePreprocessing.usedFile(earlier.get(p)));
      }
      // A file system that reports more free space than it has: the write itself fails.
      DealerFiles.Amounts tooMuch = new DealerFiles.Amounts(25_000, 0, 0, 0, 0);
      UncheckedIOException e =
          assertThrows(
              UncheckedIOException.class,
              () ->
                  DealerFiles.write(
                      small.path, M61, 2, tooMuch, new byte[16], Long.MAX_VALUE, p -> 1L << 40));
      assertTrue(e.getMessage().contains("No space left on device"), e.getMessage());
      assertTrue(e.getMessage().contains("partial files were removed"), e.getMessage());
      for (int p = 0; p < 2; p++) {
        assertArrayEquals(before[2 * p], Files.readAllBytes(earlier.get(p)));
        assertArrayEquals(
            before[2 * p + 1], Files.readAllBytes(FilePreprocessing.usedFile(earlier.get(p))));
      }
      assertEquals(
          List.of("party-0.spdz", "party-0.spdz.used", "party-1.spdz", "party-1.spdz.used"),
          list(small.path));
      // ... and the earlier dealing is still readable.
      FilePreprocessing.open(earlier.get(1), M61, 1, 2).triples(100);
    }
  }

  @Test
  void remaining_isWhatWasDealtLessWhatWasDrawn(@TempDir Path directory) {
    DealerFiles.Amounts a = new DealerFiles.Amounts(7, 3, 5, 11, 13);
    DealerFiles.writeInsecure(directory, M61, 3, a, 2);
    FilePreprocessing p1 = FilePreprocessing.open(DealerFiles.file(directory, 1), M61, 1, 3);
    p1.triples(2);
    p1.randomElements(1);
    p1.randomBits(4);
    p1.inputMasks(0, 3);
    p1.inputBits(2, 10);

    DealerFiles.Remaining left = DealerFiles.remaining(directory, M61, 1, 3);

    assertEquals(5, left.triples());
    assertEquals(2, left.randomElements());
    assertEquals(1, left.randomBits());
    assertEquals(8, left.inputMasks(0));
    assertEquals(11, left.inputMasks(1));
    assertEquals(13, left.inputBits(1));
    assertEquals(3, left.inputBits(2));
    // Another party's file is its own: nothing drawn there.
    assertEquals(7, DealerFiles.remaining(directory, M61, 2, 3).triples());
  }

  private static List<String> list(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A 1 MiB tmpfs mounted at a directory, unmounted on close. */
  private static final class Tmpfs implements AutoCloseable {
    static final long BYTES = 1 << 20;
    final Path path;

    private Tmpfs(Path path) {
      this.path = path;
    }

    static Tmpfs mount(Path path) throws Exception {
      assumeTrue(
          System.getProperty("os.name").startsWith("Linux"), "a tmpfs needs Linux: not tested");
      Files.createDirectories(path);
      int rc = run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", path.toString());
      assumeTrue(rc == 0, "cannot mount a tmpfs (not root?): not tested here; CI runs as root");
      return new Tmpfs(path);
    }

    private static int run(String... command) throws Exception {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      process.getInputStream().readAllBytes();
      assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", command));
      return process.exitValue();
    }

    @Override
    public void close() throws Exception {
      assertEquals(0, run("umount", "--lazy", path.toString()), "umount " + path);
    }
  }
}
