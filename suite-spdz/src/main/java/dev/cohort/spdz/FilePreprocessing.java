package dev.cohort.spdz;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.suite.Shares;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One party's preprocessing read from the file {@link DealerFiles} wrote for it, one batch at a
 * time (the file is opened for each batch, so nothing stays open when the suite is dropped). The
 * header is checked against the party, the number of parties and the field before anything is used.
 */
final class FilePreprocessing implements SpdzPreprocessing {

  private final Path file;
  private final int words;
  private final int party;
  private final long[] alpha;
  private final Section triples;
  private final Section random;
  private final Section bits;
  private final Section[] masks;

  private FilePreprocessing(Path file, Field field, int party, int parties, long[] header) {
    this.file = file;
    this.words = field.words();
    this.party = party;
    int h = 6 + words;
    long position = 8L * (h + 4);
    this.alpha = read(position, words);
    position += 8L * words;
    this.triples = new Section("triples", position, header[h], 6);
    position = triples.end();
    this.random = new Section("random elements", position, header[h + 1], 2);
    position = random.end();
    this.bits = new Section("random bits", position, header[h + 2], 2);
    position = bits.end();
    this.masks = new Section[parties];
    for (int owner = 0; owner < parties; owner++) {
      masks[owner] =
          new Section(
              "input masks of " + PartyId.of(owner),
              position,
              header[h + 3],
              owner == party ? 3 : 2);
      position = masks[owner].end();
    }
  }

  static FilePreprocessing open(Path file, Field field, int party, int parties) {
    long[] fixed = readHeader(file, 6);
    if (fixed[0] != DealerFiles.MAGIC || fixed[1] != DealerFiles.VERSION) {
      throw new IllegalArgumentException(file + " is not a version-1 SPDZ preprocessing file");
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
    long[] header = readHeader(file, 6 + field.words() + 4);
    boolean sameField = fixed[4] == field.words() && fixed[5] == field.bitLength();
    for (int w = 0; sameField && w < field.words(); w++) {
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
    return new FilePreprocessing(file, field, party, parties, header);
  }

  private static long[] readHeader(Path file, int n) {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      if (in.size() < 8L * n) {
        throw new IllegalArgumentException(file + " is not a SPDZ preprocessing file (too short)");
      }
      return read(in, 0, n);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read SPDZ preprocessing file " + file, e);
    }
  }

  private long[] read(long position, int n) {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      return read(in, position, n);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read SPDZ preprocessing file " + file, e);
    }
  }

  private static long[] read(FileChannel in, long position, int n) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(8 * n).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      int got = in.read(buffer, position + buffer.position());
      if (got < 0) {
        throw new IOException("unexpected end of file");
      }
    }
    buffer.flip();
    long[] out = new long[n];
    buffer.asLongBuffer().get(out);
    return out;
  }

  @Override
  public long[] macKeyShare() {
    return alpha.clone();
  }

  @Override
  public Triples triples(int count) {
    long[][] c = triples.take(count);
    return new Triples(
        new Shares(count, c[0], c[1]),
        new Shares(count, c[2], c[3]),
        new Shares(count, c[4], c[5]));
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    long[][] c = masks[owner].take(count);
    return new InputMasks(new Shares(count, c[0], c[1]), owner == party ? c[2] : null);
  }

  @Override
  public Shares randomElements(int count) {
    long[][] c = random.take(count);
    return new Shares(count, c[0], c[1]);
  }

  @Override
  public Shares randomBits(int count) {
    long[][] c = bits.take(count);
    return new Shares(count, c[0], c[1]);
  }

  /** A kind of material: {@code columns} columns of {@code total} elements from {@code start}. */
  private final class Section {
    private final String what;
    private final long start;
    private final long total;
    private final int columns;
    private long used;

    Section(String what, long start, long total, int columns) {
      this.what = what;
      this.start = start;
      this.total = total;
      this.columns = columns;
    }

    long end() {
      return start + columns * total * words * 8;
    }

    long[][] take(int count) {
      if (count > total - used) {
        throw new IllegalStateException(
            "SPDZ preprocessing file "
                + file
                + " ran out of "
                + what
                + ": "
                + count
                + " needed, "
                + (total - used)
                + " of "
                + total
                + " left");
      }
      long[][] out = new long[columns][];
      try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
        for (int c = 0; c < columns; c++) {
          long position = start + ((long) c * total + used) * words * 8;
          out[c] = read(in, position, count * words);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read SPDZ preprocessing file " + file, e);
      }
      used += count;
      return out;
    }
  }
}
