package dev.cohort.spdz;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The header of a dealer file ({@link DealerFiles} describes the layout), read and checked before
 * anything of the file is used: magic, version, party, number of parties, field, and the file's
 * size against the counts it declares (so a truncated or corrupt file is refused up front).
 */
final class DealerFileHeader {

  private DealerFileHeader() {}

  /** Reads and checks the header: magic, version, party, parties, field and the file's size. */
  static long[] read(Path file, FileChannel in, Field field, int party, int parties)
      throws IOException {
    int words = field.words();
    int length = 6 + words + DealerFiles.COUNTS_AND_ID;
    if (in.size() < 8L * 6) {
      throw new IllegalArgumentException(file + " is not a SPDZ preprocessing file (too short)");
    }
    long[] fixed = readAt(in, 0, 6);
    if (fixed[0] != DealerFiles.MAGIC) {
      throw new IllegalArgumentException(file + " is not a SPDZ preprocessing file (bad magic)");
    }
    if (fixed[1] != DealerFiles.VERSION) {
      throw new IllegalArgumentException(
          file
              + " is a version-"
              + fixed[1]
              + " SPDZ preprocessing file; this reader takes version "
              + DealerFiles.VERSION
              + "; deal fresh files with 'cohort preprocess'");
    }
    if (fixed[2] != party || fixed[3] != parties) {
      throw new IllegalArgumentException(
          file
              + " holds the preprocessing of P"
              + fixed[2]
              + " of "
              + fixed[3]
              + " parties, not of "
              + PartyId.of(party)
              + " of "
              + parties);
    }
    boolean sameField =
        fixed[4] == words && fixed[5] == field.bitLength() && in.size() >= 8L * length;
    long[] header = sameField ? readAt(in, 0, length) : fixed;
    for (int w = 0; sameField && w < words; w++) {
      sameField = header[6 + w] == field.modulus().shiftRight(64 * w).longValue();
    }
    if (!sameField) {
      throw new IllegalArgumentException(
          file
              + " was dealt over a "
              + fixed[5]
              + "-bit field, not over "
              + field.name()
              + " ("
              + field.bitLength()
              + " bits)");
    }
    long expected = expectedSize(file, header, words, parties);
    if (in.size() != expected) {
      throw new IllegalArgumentException(
          file
              + " is truncated or corrupt: its header describes "
              + expected
              + " bytes, the file has "
              + in.size());
    }
    return header;
  }

  /** The size in bytes of a file with {@code header}'s counts. */
  private static long expectedSize(Path file, long[] header, int words, int parties) {
    int h = 6 + words;
    long triples = header[h];
    long random = header[h + 1];
    long bits = header[h + 2];
    long masks = header[h + 3];
    long inputBits = header[h + 4];
    if (triples < 0 || random < 0 || bits < 0 || masks < 0 || inputBits < 0) {
      throw corruptCounts(file);
    }
    try {
      return DealerFiles.fileBytes(
          words, parties, new DealerFiles.Amounts(triples, random, bits, masks, inputBits));
    } catch (ArithmeticException e) {
      throw corruptCounts(file);
    }
  }

  private static IllegalArgumentException corruptCounts(Path file) {
    return new IllegalArgumentException(
        file + " is corrupt: its header holds impossible material counts");
  }

  private static long[] readAt(FileChannel in, long position, int n) throws IOException {
    ByteBuffer bytes = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
    while (bytes.hasRemaining()) {
      if (in.read(bytes, position + bytes.position()) < 0) {
        throw new IOException("unexpected end of file");
      }
    }
    bytes.flip();
    long[] out = new long[n];
    bytes.asLongBuffer().get(out);
    return out;
  }
}
