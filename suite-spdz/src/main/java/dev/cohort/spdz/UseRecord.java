package dev.cohort.spdz;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.zip.CRC32C;

/**
 * The use record {@code party-<i>.spdz.used} of one party's dealer file: how much of each kind of
 * material has been handed out, the id of the dealing it belongs to, and whether a MAC check is in
 * flight. Its invariant: a file whose record is missing, belongs to another dealing, or marks a
 * check in flight is never read from. {@link DealerFiles} creates it with the file (nothing used),
 * so a missing record can only mean that it was lost or deleted, never "nothing used".
 *
 * <p>A check in flight is marked before this party reveals its σ_i in a MAC check and cleared when
 * the check passes. A check that fails has revealed α to a cheater (every honest σ_i is opened
 * before the sum is checked, and Σ σ_i = −α·Σ r_j δ_j for the cheater's errors δ_j), and so has one
 * that was interrupted after σ_i left: the MAC key of the material is burned either way.
 *
 * <p>Draws replace the record atomically: a temporary file created owner-only, written, forced to
 * disk, then moved over the record, and the directory forced; after a crash the record is the old
 * one or the new one. The mark is written in place instead, the same bytes with a new mark and
 * checksum, forced (one forced write where a replacement needs two) when set, and not forced at all
 * when cleared. A crash may then leave the mark set although the check passed, or a write torn
 * (which fails the checksum): both are refused, never a record that lets burned or used material be
 * read.
 *
 * <pre>
 * little-endian longs:
 * +-------+---------+-------+---------+------+--------+------+--------+--------+--------+----------+--------+
 * | magic | version | party | parties | used | used   | used | used   | used   | id     | check in | CRC32C |
 * |       |         |       |         | trip.| random | bits | masks  | input  | (2)    | flight   |        |
 * |       |         |       |         |      |        |      | /owner | bits   |        | (0 or 1) |        |
 * |       |         |       |         |      |        |      |        | /owner |        |          |        |
 * +-------+---------+-------+---------+------+--------+------+--------+--------+--------+----------+--------+
 * </pre>
 */
final class UseRecord {

  /** The record's magic: "SPDZUSED". */
  static final long MAGIC = 0x44455355_5a445053L;

  static final long VERSION = 3; // 3: input bits per owner

  /** Where the use counts start, in bytes. */
  static final int USED_OFFSET = 32;

  private static final String DEAL_FRESH = "deal fresh files with 'cohort preprocess'";

  /** Check state: no MAC check has revealed this party's σ_i without passing. */
  static final long NO_CHECK = 0;

  /** Check state: σ_i was revealed and the check's result is not known (in flight, interrupted). */
  static final long CHECK_IN_FLIGHT = 1;

  /** Check state: σ_i was revealed and the check failed. */
  static final long CHECK_FAILED = 2;

  private final Path file;
  private final Path record;
  private final Path temp;
  private final int party;
  private final int parties;
  private final long[] id;
  private final ByteBuffer buffer;

  /**
   * The record of {@code file}, the file of {@code party} of {@code parties} dealt as {@code id}.
   */
  UseRecord(Path file, int party, int parties, long[] id) {
    this.file = file;
    this.record = of(file);
    this.temp = record.resolveSibling(record.getFileName() + ".tmp");
    this.party = party;
    this.parties = parties;
    this.id = id.clone();
    this.buffer = ByteBuffer.allocate(bytes(parties)).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The id of the dealing the file belongs to (two words). */
  long[] id() {
    return id.clone();
  }

  /** The record of {@code file}. */
  static Path of(Path file) {
    return file.resolveSibling(file.getFileName() + ".used");
  }

  /** The number of use counts among {@code parties} parties: three kinds, two per owner. */
  static int counts(int parties) {
    return 3 + 2 * parties;
  }

  /** The size of a record among {@code parties} parties. */
  static int bytes(int parties) {
    return 8 * (4 + counts(parties) + 2 + 1 + 1);
  }

  /**
   * Reads the use counts (triples, random elements, random bits, input masks by owner, input bits
   * by owner), each checked against {@code totals}. Refuses, saying to deal fresh files, a record
   * that is missing, corrupt, of another party or another dealing, or that marks a MAC check in
   * flight.
   */
  long[] read(long[] totals, String[] kinds) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(record);
    } catch (NoSuchFileException e) {
      throw refused(
          " is missing: it records how much of "
              + file
              + " earlier runs used (the dealer creates it with the file), and without it that"
              + " material could be used twice; ");
    }
    if (bytes.length != buffer.capacity()) {
      throw corrupt("it has " + bytes.length + " bytes, not " + buffer.capacity());
    }
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 8);
    if (in.getLong(bytes.length - 8) != crc.getValue()) {
      throw corrupt("bad checksum");
    }
    if (in.getLong(0) != MAGIC || in.getLong(8) != VERSION) {
      throw corrupt("bad magic or version");
    }
    if (in.getLong(16) != party || in.getLong(24) != parties) {
      throw corrupt("it belongs to P" + in.getLong(16) + " of " + in.getLong(24) + " parties");
    }
    int at = USED_OFFSET + 8 * totals.length;
    if (in.getLong(at) != id[0] || in.getLong(at + 8) != id[1]) {
      throw refused(
          " belongs to another dealing than "
              + file
              + " (their ids differ), so it does not say how much of this file was used; ");
    }
    long state = in.getLong(at + 16);
    if (state == CHECK_IN_FLIGHT) {
      throw new MaterialException(
          "a MAC check was interrupted on the SPDZ preprocessing in "
              + file
              + " (its use record "
              + record
              + " marks a check in flight: this party had revealed its check value when it, or a"
              + " peer, stopped before the check's result was known): a peer that cheated and then"
              + " stopped may know the MAC key, so this material must never be used again; "
              + DEAL_FRESH);
    }
    if (state == CHECK_FAILED) {
      throw new MaterialException(
          "a MAC check failed on the SPDZ preprocessing in "
              + file
              + " (its use record "
              + record
              + " says so): the values the check opened may have revealed the MAC key to the"
              + " party that cheated, so this material must never be used again; "
              + DEAL_FRESH);
    }
    if (state != NO_CHECK) {
      throw corrupt("bad check state");
    }
    long[] used = new long[totals.length];
    for (int k = 0; k < totals.length; k++) {
      used[k] = in.getLong(USED_OFFSET + 8 * k);
      if (used[k] < 0 || used[k] > totals[k]) {
        throw corrupt(
            "it records " + used[k] + " " + kinds[k] + " used of " + totals[k] + " in the file");
      }
    }
    return used;
  }

  /**
   * Replaces the record with {@code used} and the in-flight mark {@code checkInFlight}, atomically
   * and on disk before this returns.
   */
  void write(long[] used, long checkState) throws IOException {
    ByteBuffer out = encode(used, checkState);
    Files.deleteIfExists(temp); // left by a crash: recreated owner-only below
    try (FileChannel channel =
        FileChannel.open(
            temp,
            EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            ownerOnly(temp))) {
      while (out.hasRemaining()) {
        channel.write(out);
      }
      channel.force(true);
    }
    try {
      Files.move(temp, record, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("the file system cannot replace " + record + " atomically", e);
    }
    forceDirectory(record.toAbsolutePath().getParent());
  }

  /**
   * Overwrites the record in place with {@code used} and the mark {@code checkInFlight}, forced to
   * disk (data only: the size does not change) when {@code durable}: one forced write where {@link
   * #write} needs two (the file and the directory), for the mark that every MAC check sets and
   * clears. A write torn by a crash fails the checksum, and a corrupt record is refused: never a
   * record that lets burned or used material be read. The record must exist.
   */
  void overwrite(long[] used, long checkState, boolean durable) throws IOException {
    ByteBuffer out = encode(used, checkState);
    try (FileChannel channel = FileChannel.open(record, StandardOpenOption.WRITE)) {
      while (out.hasRemaining()) {
        channel.write(out, out.position());
      }
      if (durable) {
        channel.force(false);
      }
    }
  }

  private ByteBuffer encode(long[] used, long checkState) {
    ByteBuffer out = buffer.clear();
    out.putLong(MAGIC).putLong(VERSION).putLong(party).putLong(parties);
    for (long u : used) {
      out.putLong(u);
    }
    out.putLong(id[0]).putLong(id[1]).putLong(checkState);
    CRC32C crc = new CRC32C();
    crc.update(out.array(), 0, out.position());
    out.putLong(crc.getValue()).flip();
    return out;
  }

  /**
   * Read and write for the owner only, as a creation attribute (never a chmod after the fact, which
   * would leave a moment when others may open the file), where the file system has POSIX
   * permissions; none elsewhere.
   */
  static FileAttribute<?>[] ownerOnly(Path path) {
    if (!path.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      return new FileAttribute<?>[0];
    }
    return new FileAttribute<?>[] {
      PosixFilePermissions.asFileAttribute(
          EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE))
    };
  }

  /** Makes a rename in {@code directory} durable where the platform allows (not on Windows). */
  static void forceDirectory(Path directory) {
    try (FileChannel d = FileChannel.open(directory, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // Directories cannot be opened or forced on some platforms: the move is still atomic.
    }
  }

  private IllegalArgumentException refused(String why) {
    return new IllegalArgumentException(record + why + DEAL_FRESH);
  }

  private IllegalArgumentException corrupt(String why) {
    return refused(
        " is corrupt ("
            + why
            + "): it records how much of "
            + file
            + " earlier runs used, and without it that material could be used twice; ");
  }
}
