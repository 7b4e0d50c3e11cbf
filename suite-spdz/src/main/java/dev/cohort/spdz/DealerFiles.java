package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * A trusted dealer that writes each party's SPDZ preprocessing to its own file, and the {@link
 * PreprocessingSource} that reads them back ({@link #source(Path)}). The dealer sees every secret
 * it deals: it must be trusted and its files kept apart; the files then hold material that only a
 * coalition of all parties could reconstruct.
 *
 * <p>File {@code party-<i>.spdz}: little-endian words, a header, then one section per kind, each
 * stored column by column (all value shares, then all MAC shares, ...):
 *
 * <pre>
 * +-------+---------+-------+---------+-------+------+---------+---------+--------+-------+-------+-------+----+-----+
 * | magic | version | party | parties | words | bits | modulus | triples | random | bits  | masks | input | id | α_i |
 * |       |         |       |         |       |      | (words) | count   | count  | count | /owner| bits  | (2)|     |
 * |       |         |       |         |       |      |         |         |        |       |       | /owner|    |     |
 * +-------+---------+-------+---------+-------+------+---------+---------+--------+-------+-------+-------+----+-----+
 * triples:  a, a mac, b, b mac, c, c mac          random:  r, r mac          bits:  b, b mac
 * masks of owner o = 0..n-1:  r, r mac, and r itself in the file of the owner
 * input bits of owner o = 0..n-1:  r, r mac, and r itself (0 or 1) in the file of the owner
 * </pre>
 *
 * <p>The id is 128 random bits drawn for each dealing, the same in every party's file. Each file
 * comes with its {@link UseRecord} {@code party-<i>.spdz.used}, created by the dealer with the id
 * and nothing used: readers record there how much they used and whether a MAC check is in flight,
 * and refuse a file whose record is missing or carries another id. Dealing replaces both. The files
 * and records are created readable and writable by their owner only (where the file system has
 * POSIX permissions), and a directory the dealer creates is its owner's only.
 */
public final class DealerFiles {

  static final long MAGIC = 0x454c4946_5a445053L; // "SPDZFILE"
  static final long VERSION = 3; // 3: input bits per owner

  /** Header words after the modulus: the five material counts and the two words of the id. */
  static final int COUNTS_AND_ID = 7;

  private static final int CHUNK = 1 << 16;

  /**
   * How much of each kind to deal.
   *
   * @param triples Beaver triples
   * @param randomElements random elements
   * @param randomBits random bits
   * @param inputMasks input masks per party (also used by openings to that party)
   * @param inputBits input bits per party: k for each k-bit value the party inputs
   */
  public record Amounts(
      long triples, long randomElements, long randomBits, long inputMasks, long inputBits) {
    public Amounts {
      if (triples < 0 || randomElements < 0 || randomBits < 0 || inputMasks < 0 || inputBits < 0) {
        throw new IllegalArgumentException("amounts must be >= 0: " + this);
      }
    }
  }

  private DealerFiles() {}

  /** The file of {@code party} in {@code directory}. */
  public static Path file(Path directory, int party) {
    return directory.resolve("party-" + party + ".spdz");
  }

  /**
   * The size in bytes of each party's file (every party's is the same size) for {@code parties}
   * parties over a field of {@code words} 64-bit words.
   *
   * @throws ArithmeticException if the size does not fit in a long
   */
  public static long fileBytes(int words, int parties, Amounts amounts) {
    long elements = Math.multiplyExact(6, amounts.triples());
    elements = Math.addExact(elements, Math.multiplyExact(2, amounts.randomElements()));
    elements = Math.addExact(elements, Math.multiplyExact(2, amounts.randomBits()));
    elements = Math.addExact(elements, Math.multiplyExact(2L * parties + 1, amounts.inputMasks()));
    elements = Math.addExact(elements, Math.multiplyExact(2L * parties + 1, amounts.inputBits()));
    elements = Math.addExact(elements, 1); // the MAC key share
    return Math.addExact(
        8L * (6 + words + COUNTS_AND_ID), Math.multiplyExact(elements, 8L * words));
  }

  /**
   * What a dealing for {@code parties} parties writes in all: their files and use records, or
   * {@link Long#MAX_VALUE} when that does not fit in a long.
   */
  public static long dealingBytes(Field field, int parties, Amounts amounts) {
    try {
      return Math.multiplyExact(
          parties,
          Math.addExact(fileBytes(field.words(), parties, amounts), UseRecord.bytes(parties)));
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /**
   * Deals from a fresh secret key and writes one file per party into {@code directory}, refusing up
   * front a dealing larger than {@code maxBytes} or than the free space there ({@link #write(Path,
   * Field, int, Amounts)}).
   */
  public static List<Path> write(
      Path directory, Field field, int parties, Amounts amounts, long maxBytes) {
    byte[] key = new byte[16];
    new SecureRandom().nextBytes(key);
    return write(directory, field, parties, amounts, key, maxBytes);
  }

  /**
   * Deals from a fresh secret key and writes one file per party into {@code directory}. Nothing is
   * written when the dealing does not fit in the free space of the directory's file system ({@link
   * DealingSpace.InsufficientSpaceException}); the files are written under temporary names and only
   * renamed into place (each with its new use record) once all are on disk, so a failed write (a
   * full disk, an I/O error) removes what it wrote and leaves an earlier dealing in {@code
   * directory} as it was.
   */
  public static List<Path> write(Path directory, Field field, int parties, Amounts amounts) {
    return write(directory, field, parties, amounts, Long.MAX_VALUE);
  }

  /** As {@link #write(Path, Field, int, Amounts)} from a seed: INSECURE, for tests. */
  public static List<Path> writeInsecure(
      Path directory, Field field, int parties, Amounts amounts, long seed) {
    byte[] key = new byte[16];
    for (int b = 0; b < 8; b++) {
      key[b] = (byte) (seed >>> (8 * b));
      key[8 + b] = (byte) ~(seed >>> (8 * b));
    }
    return write(directory, field, parties, amounts, key, Long.MAX_VALUE);
  }

  private static List<Path> write(
      Path directory, Field field, int parties, Amounts amounts, byte[] key, long maxBytes) {
    return write(directory, field, parties, amounts, key, maxBytes, DealerFiles::usableSpace);
  }

  private static long usableSpace(Path existing) {
    try {
      return Files.getFileStore(existing).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the free space of " + existing, e);
    }
  }

  /**
   * As {@link #write(Path, Field, int, Amounts)} with the free space of a directory as {@code
   * freeSpace} reports it (a file system may report more than it can hold: quotas, thin
   * provisioning, other writers), INSECURE when {@code key} is not secret.
   */
  static List<Path> write(
      Path directory,
      Field field,
      int parties,
      Amounts amounts,
      byte[] key,
      long maxBytes,
      ToLongFunction<Path> freeSpace) {
    long[] id = new long[2];
    Prg.secure().fill(id, 0, 2); // a fresh id even for a seeded dealing: it names this dealing
    List<Path> temps = new ArrayList<>();
    try {
      DealingSpace.check(directory, dealingBytes(field, parties, amounts), maxBytes, freeSpace);
      if (!Files.isDirectory(directory)) {
        Files.createDirectories(directory, ownerOnlyDirectory(directory));
      }
      for (int p = 0; p < parties; p++) {
        InsecureDealer dealer = new InsecureDealer(field, p, parties, key, Long.MAX_VALUE);
        Path temp = temporary(file(directory, p));
        Files.deleteIfExists(temp); // left by a crashed dealing: recreated owner-only below
        temps.add(temp);
        try (FileChannel out =
            FileChannel.open(
                temp,
                EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                UseRecord.ownerOnly(temp))) {
          new Writer(out, field).write(dealer, p, parties, amounts, id);
          out.force(true);
        }
      }
    } catch (IOException e) {
      removeQuietly(temps);
      throw new UncheckedIOException(
          "cannot write SPDZ preprocessing to "
              + directory
              + ": "
              + describe(e)
              + " (the partial files were removed; an earlier dealing there is unchanged)",
          e);
    } catch (RuntimeException e) {
      removeQuietly(temps);
      throw e;
    }
    List<Path> files = new ArrayList<>();
    try {
      for (int p = 0; p < parties; p++) {
        // Each new file replaces the old one, and only then is its record (with the new id)
        // written: a crash in between leaves a file whose record carries another id, refused.
        Path file = file(directory, p);
        Files.move(temps.get(p), file, StandardCopyOption.REPLACE_EXISTING);
        new UseRecord(file, p, parties, id)
            .write(new long[UseRecord.counts(parties)], UseRecord.NO_CHECK);
        files.add(file);
      }
      UseRecord.forceDirectory(directory.toAbsolutePath());
    } catch (IOException e) {
      removeQuietly(temps);
      throw new UncheckedIOException(
          "cannot write SPDZ preprocessing to "
              + directory
              + ": "
              + describe(e)
              + " (after "
              + files.size()
              + " of "
              + parties
              + " files were in place: deal again)",
          e);
    }
    return files;
  }

  /**
   * Writes one party's file and its new use record from {@code material} that the parties made
   * among themselves (the offline phase, PROTOCOLS.md §5), in the format the dealer writes: every
   * party calls this at the same time with the same {@code amounts} and {@code id} (128 bits drawn
   * jointly, the same at every party, which binds the files of one run to each other), and {@code
   * material} draws each kind in the same order at every party. Nothing is written when the file
   * does not fit in the free space or in {@code maxBytes}; the file is written under a temporary
   * name and renamed into place with its record only when complete, so a failure leaves an earlier
   * file in {@code directory} as it was.
   */
  public static Path writeParty(
      Path directory,
      Field field,
      int party,
      int parties,
      Amounts amounts,
      SpdzPreprocessing material,
      long[] id,
      long maxBytes) {
    if (id.length != 2) {
      throw new IllegalArgumentException("a dealing id is 2 words, not " + id.length);
    }
    Path file = file(directory, party);
    Path temp = temporary(file);
    try {
      long needed =
          Math.addExact(fileBytes(field.words(), parties, amounts), UseRecord.bytes(parties));
      DealingSpace.check(directory, needed, maxBytes, DealerFiles::usableSpace);
      if (!Files.isDirectory(directory)) {
        Files.createDirectories(directory, ownerOnlyDirectory(directory));
      }
      Files.deleteIfExists(temp);
      try (FileChannel out =
          FileChannel.open(
              temp,
              EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
              UseRecord.ownerOnly(temp))) {
        new Writer(out, field).write(material, party, parties, amounts, id);
        out.force(true);
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      new UseRecord(file, party, parties, id)
          .write(new long[UseRecord.counts(parties)], UseRecord.NO_CHECK);
      UseRecord.forceDirectory(directory.toAbsolutePath());
      return file;
    } catch (IOException e) {
      removeQuietly(List.of(temp));
      throw new UncheckedIOException(
          "cannot write SPDZ preprocessing to "
              + directory
              + ": "
              + describe(e)
              + " (the partial file was removed; an earlier file there is unchanged)",
          e);
    } catch (RuntimeException e) {
      removeQuietly(List.of(temp));
      throw e;
    }
  }

  private static Path temporary(Path file) {
    return file.resolveSibling(file.getFileName() + ".tmp");
  }

  private static void removeQuietly(List<Path> paths) {
    for (Path path : paths) {
      try {
        Files.deleteIfExists(path);
      } catch (IOException e) {
        // Best effort: the dealing already failed with its own cause.
      }
    }
  }

  /** The cause of an I/O error as a user reads it ("No space left on device", "Permission ..."). */
  private static String describe(IOException e) {
    String message = e.getMessage();
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      message = fs.getReason() + (fs.getFile() == null ? "" : " (" + fs.getFile() + ")");
    }
    return message == null ? e.getClass().getSimpleName() : message;
  }

  private static FileAttribute<?>[] ownerOnlyDirectory(Path directory) {
    if (UseRecord.ownerOnly(directory).length == 0) {
      return new FileAttribute<?>[0];
    }
    return new FileAttribute<?>[] {
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))
    };
  }

  /**
   * Reads each party's preprocessing from its file in {@code directory}, from where earlier readers
   * of the file stopped (recorded next to it, see {@link FilePreprocessing}): no material is used
   * twice, also across restarts.
   */
  public static PreprocessingSource source(Path directory) {
    return (field, party, parties) ->
        FilePreprocessing.open(file(directory, party), field, party, parties);
  }

  /**
   * What is left of each kind in {@code party}'s file in {@code directory}, as its use record says:
   * for checking, before a run, that the material covers it. Refuses (as a reader would) a file
   * that cannot be used.
   */
  public static Remaining remaining(Path directory, Field field, int party, int parties) {
    return FilePreprocessing.remaining(file(directory, party), field, party, parties);
  }

  /**
   * Material left in one party's file, by kind.
   *
   * @param triples Beaver triples
   * @param randomElements random elements
   * @param randomBits random bits
   * @param inputMasks input masks, by owner
   * @param inputBits input bits, by owner
   */
  public record Remaining(
      long triples, long randomElements, long randomBits, long[] inputMasks, long[] inputBits) {
    public Remaining {
      inputMasks = inputMasks.clone();
      inputBits = inputBits.clone();
    }

    /** Input masks of {@code owner} left. */
    public long inputMasks(int owner) {
      return inputMasks[owner];
    }

    /** Input bits of {@code owner} left. */
    public long inputBits(int owner) {
      return inputBits[owner];
    }
  }

  /** A dealer's draw of items owned by one party: its input masks or its input bits. */
  @FunctionalInterface
  private interface OwnedDraw {
    SpdzPreprocessing.InputMasks draw(int owner, int count);
  }

  /** Writes sections column by column at computed positions, a chunk of elements at a time. */
  private static final class Writer {
    private final FileChannel out;
    private final Field field;
    private final int words;
    private long position;

    Writer(FileChannel out, Field field) {
      this.out = out;
      this.field = field;
      this.words = field.words();
    }

    void write(SpdzPreprocessing dealer, int party, int parties, Amounts amounts, long[] id)
        throws IOException {
      long[] header = new long[6 + words + COUNTS_AND_ID];
      header[0] = MAGIC;
      header[1] = VERSION;
      header[2] = party;
      header[3] = parties;
      header[4] = words;
      header[5] = field.bitLength();
      for (int w = 0; w < words; w++) {
        header[6 + w] = field.modulus().shiftRight(64 * w).longValue();
      }
      header[6 + words] = amounts.triples();
      header[7 + words] = amounts.randomElements();
      header[8 + words] = amounts.randomBits();
      header[9 + words] = amounts.inputMasks();
      header[10 + words] = amounts.inputBits();
      header[11 + words] = id[0];
      header[12 + words] = id[1];
      put(header, header.length);
      put(dealer.macKeyShare(), words);

      long total = amounts.triples();
      long start = position;
      for (long at = 0; at < total; at += CHUNK) {
        int n = (int) Math.min(CHUNK, total - at);
        SpdzPreprocessing.Triples t = dealer.triples(n);
        columns(
            start,
            total,
            at,
            n,
            t.a().share,
            t.a().mac,
            t.b().share,
            t.b().mac,
            t.c().share,
            t.c().mac);
      }
      position = start + 6 * total * words * 8;

      total = amounts.randomElements();
      start = position;
      for (long at = 0; at < total; at += CHUNK) {
        int n = (int) Math.min(CHUNK, total - at);
        Shares r = dealer.randomElements(n);
        columns(start, total, at, n, r.share, r.mac);
      }
      position = start + 2 * total * words * 8;

      total = amounts.randomBits();
      start = position;
      for (long at = 0; at < total; at += CHUNK) {
        int n = (int) Math.min(CHUNK, total - at);
        Shares b = dealer.randomBits(n);
        columns(start, total, at, n, b.share, b.mac);
      }
      position = start + 2 * total * words * 8;

      owned(amounts.inputMasks(), party, parties, dealer::inputMasks);
      owned(amounts.inputBits(), party, parties, dealer::inputBits);
    }

    /**
     * One section per owner of {@code total} items each (input masks or input bits): shares and
     * MACs, and the values themselves in the owner's own file.
     */
    private void owned(long total, int party, int parties, OwnedDraw draw) throws IOException {
      for (int owner = 0; owner < parties; owner++) {
        long start = position;
        int columns = owner == party ? 3 : 2;
        for (long at = 0; at < total; at += CHUNK) {
          int n = (int) Math.min(CHUNK, total - at);
          SpdzPreprocessing.InputMasks m = draw.draw(owner, n);
          if (owner == party) {
            columns(start, total, at, n, m.shares().share, m.shares().mac, m.values());
          } else {
            columns(start, total, at, n, m.shares().share, m.shares().mac);
          }
        }
        position = start + columns * total * words * 8;
      }
    }

    /** Elements [at, at + n) of each column of a section of {@code total} elements. */
    private void columns(long start, long total, long at, int n, long[]... columns)
        throws IOException {
      for (int c = 0; c < columns.length; c++) {
        long offset = start + ((long) c * total + at) * words * 8;
        ByteBuffer buffer = ByteBuffer.allocate(n * words * 8).order(ByteOrder.LITTLE_ENDIAN);
        buffer.asLongBuffer().put(columns[c], 0, n * words);
        while (buffer.hasRemaining()) {
          offset += out.write(buffer, offset);
        }
      }
    }

    private void put(long[] values, int n) throws IOException {
      ByteBuffer buffer = ByteBuffer.allocate(n * 8).order(ByteOrder.LITTLE_ENDIAN);
      buffer.asLongBuffer().put(values, 0, n);
      while (buffer.hasRemaining()) {
        position += out.write(buffer, position);
      }
    }
  }
}
