package dev.cohort.spdz;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.suite.Shares;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One party's preprocessing streamed from the file {@link DealerFiles} wrote for it. The file stays
 * open and every draw reads just the elements it returns, through one fixed buffer of {@value
 * #BUFFER_BYTES} bytes: a file of millions of triples costs no more memory than the largest single
 * draw. The header is checked against the party, the number of parties and the field, and the file
 * size against the header, before anything is used.
 *
 * <p>Each kind of material is a section stored column by column, so a draw is one positional read
 * per column from where the previous draw of that kind stopped; the operating system's read-ahead
 * sees sequential reads per column. The suite has no close hook: the file is closed once every
 * section is used up, after an I/O error, or when this object becomes unreachable (a {@link
 * Cleaner}).
 *
 * <p>Material must never be used twice, also not across processes: how much of each kind has been
 * handed out is kept in the file's {@link UseRecord} ({@code party-<i>.spdz.used}, {@link
 * #usedFile(Path)}), which the dealer creates with the file, bound to it by the dealing's id. A
 * reader opened on the same file later starts every kind where the previous ones stopped. Every
 * draw first records the new position, replacing the record atomically and on disk, and only then
 * reads and returns the material: after a crash some material may be skipped, never used again.
 * Skipped material can leave the parties' positions apart; when the next run starts, the parties
 * agree on the furthest position of each kind ({@link PositionAgreement}, {@link #positions()},
 * {@link #skipTo(long[])}) and continue from there. A record that is missing, damaged or of another
 * dealing is an error: the file cannot be used safely without it. Two readers open at the same time
 * on the same file are not detected: run each party once.
 *
 * <p>A failed MAC check burns the file's MAC key: before this party reveals its σ_i in a check
 * ({@link #beforeMacReveal()}) the record durably marks a check in flight, and the mark is cleared
 * when the check passes ({@link #macCheckPassed()}, not forced to disk: after a crash the mark may
 * survive, which errs on the side of refusing). A reader that finds the mark refuses the file.
 */
final class FilePreprocessing implements SpdzPreprocessing {

  /** The reader's whole buffer: what it holds besides the arrays it returns. */
  static final int BUFFER_BYTES = 1 << 16;

  private static final Cleaner CLEANER = Cleaner.create();

  private final Path file;
  private final UseRecord record;
  private final int words;
  private final int party;
  private final FileChannel channel;
  private final Cleaner.Cleanable closer;
  private final ByteBuffer buffer =
      ByteBuffer.allocateDirect(BUFFER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
  private final long[] alpha;
  private final Section triples;
  private final Section random;
  private final Section bits;
  private final Section[] masks;
  private final Section[] inputBits;
  private long bytesRead;
  private boolean closed;
  private long checkState = UseRecord.NO_CHECK;

  private FilePreprocessing(
      Path file, FileChannel channel, Field field, int party, int parties, long[] header)
      throws IOException {
    this.file = file;
    this.channel = channel;
    this.words = field.words();
    this.party = party;
    int h = 6 + words;
    this.record = new UseRecord(file, party, parties, new long[] {header[h + 5], header[h + 6]});
    long position = 8L * (h + DealerFiles.COUNTS_AND_ID);
    this.alpha = new long[words];
    read(position, alpha);
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
    this.inputBits = new Section[parties];
    for (int owner = 0; owner < parties; owner++) {
      inputBits[owner] =
          new Section(
              "input bits of " + PartyId.of(owner),
              position,
              header[h + 4],
              owner == party ? 3 : 2);
      position = inputBits[owner].end();
    }
    readUsed();
    this.closer = CLEANER.register(this, new Closer(channel));
    closeIfUsedUp();
  }

  static FilePreprocessing open(Path file, Field field, int party, int parties) {
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.READ);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("SPDZ preprocessing file " + file + " does not exist", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read SPDZ preprocessing file " + file, e);
    }
    try {
      long[] header = DealerFileHeader.read(file, channel, field, party, parties);
      return new FilePreprocessing(file, channel, field, party, parties, header);
    } catch (IOException e) {
      Closer.close(channel);
      throw new UncheckedIOException("cannot read SPDZ preprocessing file " + file, e);
    } catch (RuntimeException e) {
      Closer.close(channel);
      throw e;
    }
  }

  /** What is left of each kind in {@code file}, as its record says; the file is closed again. */
  static DealerFiles.Remaining remaining(Path file, Field field, int party, int parties) {
    FilePreprocessing reader = open(file, field, party, parties);
    try {
      long[] masks = new long[parties];
      long[] bits = new long[parties];
      for (int owner = 0; owner < parties; owner++) {
        masks[owner] = reader.masks[owner].left();
        bits[owner] = reader.inputBits[owner].left();
      }
      return new DealerFiles.Remaining(
          reader.triples.left(), reader.random.left(), reader.bits.left(), masks, bits);
    } finally {
      reader.close();
    }
  }

  /** The use record of {@code file}: how much of its material has been used. */
  static Path usedFile(Path file) {
    return UseRecord.of(file);
  }

  /**
   * The sections in the use record's order: triples, random elements, random bits, masks by owner,
   * input bits by owner.
   */
  private Section[] sections() {
    Section[] all = new Section[3 + masks.length + inputBits.length];
    all[0] = triples;
    all[1] = random;
    all[2] = bits;
    System.arraycopy(masks, 0, all, 3, masks.length);
    System.arraycopy(inputBits, 0, all, 3 + masks.length, inputBits.length);
    return all;
  }

  /** Starts every section where the use record says earlier readers stopped. */
  private void readUsed() throws IOException {
    Section[] all = sections();
    long[] totals = new long[all.length];
    String[] kinds = new String[all.length];
    for (int k = 0; k < all.length; k++) {
      totals[k] = all[k].total;
      kinds[k] = all[k].what;
    }
    long[] used = record.read(totals, kinds);
    for (int k = 0; k < all.length; k++) {
      all[k].used = used[k];
    }
  }

  /**
   * Records that {@code section} has used {@code used} elements, the others as they are, with the
   * in-flight mark as it stands: the record is replaced atomically and on disk before this returns
   * ({@code section} null: only the mark, written in place, forced when {@code durable}).
   */
  private void recordUsed(Section section, long used, boolean durable) {
    Section[] all = sections();
    long[] counts = new long[all.length];
    for (int k = 0; k < all.length; k++) {
      counts[k] = all[k] == section ? used : all[k].used;
    }
    try {
      if (section == null) {
        record.overwrite(counts, checkState, durable);
      } else {
        record.write(counts, checkState);
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(
          "cannot record the use of SPDZ preprocessing file " + file + " in " + usedFile(file), e);
    }
  }

  /** Fills {@code dst} from {@code position} on, {@link #BUFFER_BYTES} at a time. */
  private void read(long position, long[] dst) throws IOException {
    int chunkWords = BUFFER_BYTES / 8;
    for (int at = 0; at < dst.length; ) {
      int n = Math.min(chunkWords, dst.length - at);
      buffer.clear().limit(8 * n);
      while (buffer.hasRemaining()) {
        if (channel.read(buffer, position + buffer.position()) < 0) {
          throw new IOException("unexpected end of file (was it changed while in use?)");
        }
      }
      buffer.flip();
      buffer.asLongBuffer().get(dst, at, n);
      at += n;
      position += 8L * n;
    }
    bytesRead += 8L * dst.length;
  }

  /** Bytes of material read from the file so far (the header excluded). */
  synchronized long bytesRead() {
    return bytesRead;
  }

  /** Whether the file is still open: false once every section is used up. */
  synchronized boolean isOpen() {
    return !closed;
  }

  private void closeIfUsedUp() {
    boolean usedUp = triples.left() == 0 && random.left() == 0 && bits.left() == 0;
    for (Section m : masks) {
      usedUp &= m.left() == 0;
    }
    for (Section b : inputBits) {
      usedUp &= b.left() == 0;
    }
    if (usedUp) {
      close();
    }
  }

  private void close() {
    closed = true;
    closer.clean();
  }

  @Override
  public long[] macKeyShare() {
    return alpha.clone();
  }

  @Override
  public synchronized Triples triples(int count) {
    long[][] c = triples.take(count);
    return new Triples(
        new Shares(count, c[0], c[1]),
        new Shares(count, c[2], c[3]),
        new Shares(count, c[4], c[5]));
  }

  @Override
  public synchronized InputMasks inputMasks(int owner, int count) {
    long[][] c = masks[owner].take(count);
    return new InputMasks(new Shares(count, c[0], c[1]), owner == party ? c[2] : null);
  }

  @Override
  public synchronized InputMasks inputBits(int owner, int count) {
    long[][] c = inputBits[owner].take(count);
    return new InputMasks(new Shares(count, c[0], c[1]), owner == party ? c[2] : null);
  }

  @Override
  public synchronized Shares randomElements(int count) {
    long[][] c = random.take(count);
    return new Shares(count, c[0], c[1]);
  }

  @Override
  public synchronized Shares randomBits(int count) {
    long[][] c = bits.take(count);
    return new Shares(count, c[0], c[1]);
  }

  @Override
  public synchronized Positions positions() {
    Section[] all = sections();
    long[] used = new long[all.length];
    for (int k = 0; k < all.length; k++) {
      used[k] = all[k].used;
    }
    return new Positions(record.id(), used);
  }

  /**
   * Skips every section forward to {@code used}, recorded (atomically, on disk) before this
   * returns. Refuses a position past a section's end, naming it.
   */
  @Override
  public synchronized void skipTo(long[] used) {
    Section[] all = sections();
    if (used.length != all.length) {
      throw new IllegalArgumentException(
          "positions of " + used.length + " kinds, not " + all.length);
    }
    for (int k = 0; k < all.length; k++) {
      if (used[k] > all[k].total) {
        throw new MaterialException(
            "SPDZ preprocessing file "
                + file
                + " cannot skip to "
                + used[k]
                + " "
                + all[k].what
                + ": it holds "
                + all[k].total
                + "; deal fresh files with 'cohort preprocess'");
      }
    }
    long[] counts = new long[all.length];
    boolean moved = false;
    for (int k = 0; k < all.length; k++) {
      counts[k] = Math.max(all[k].used, used[k]);
      moved |= counts[k] != all[k].used;
    }
    if (!moved) {
      return;
    }
    try {
      record.write(counts, checkState);
    } catch (IOException e) {
      close();
      throw new UncheckedIOException(
          "cannot record the use of SPDZ preprocessing file " + file + " in " + usedFile(file), e);
    }
    for (int k = 0; k < all.length; k++) {
      all[k].used = counts[k];
    }
    closeIfUsedUp();
  }

  /**
   * Marks a MAC check in flight in the use record, on disk, before this party's σ_i leaves: from
   * here until {@link #macCheckPassed()} this file's MAC key counts as burned.
   */
  @Override
  public synchronized void beforeMacReveal() {
    checkState = UseRecord.CHECK_IN_FLIGHT;
    recordUsed(null, 0, true);
  }

  /**
   * Clears the in-flight mark. Not forced to disk: σ_i is already out, and a mark that survives a
   * crash only makes the next reader refuse; the next draw forces the record anyway.
   */
  @Override
  public synchronized void macCheckPassed() {
    checkState = UseRecord.NO_CHECK;
    recordUsed(null, 0, false);
  }

  /** Marks, on disk, that the check in flight failed: refused with that reason from now on. */
  @Override
  public synchronized void macCheckFailed() {
    checkState = UseRecord.CHECK_FAILED;
    recordUsed(null, 0, true);
  }

  /** Closes the channel; holds no reference to the reader, so the reader can be collected. */
  private record Closer(FileChannel channel) implements Runnable {
    @Override
    public void run() {
      close(channel);
    }

    static void close(FileChannel channel) {
      try {
        channel.close();
      } catch (IOException e) {
        // Only read from: nothing is lost when closing fails.
      }
    }
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

    long left() {
      return total - used;
    }

    long[][] take(int count) {
      if (count > total - used) {
        throw new MaterialException(
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
      long from = used;
      if (count > 0) {
        recordUsed(this, from + count, true); // reserve before use: skipped, never reused
        used = from + count;
      }
      long[][] out = new long[columns][];
      try {
        for (int c = 0; c < columns; c++) {
          out[c] = new long[count * words];
          read(start + ((long) c * total + from) * words * 8, out[c]);
        }
      } catch (IOException e) {
        close();
        throw new UncheckedIOException("cannot read SPDZ preprocessing file " + file, e);
      }
      closeIfUsedUp();
      return out;
    }
  }
}
