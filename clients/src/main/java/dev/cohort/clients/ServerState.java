package dev.cohort.clients;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * What an input server keeps across sessions: the last session that every server saved, the number
 * of contributors so far (public: each session's count is), and this server's shares of the running
 * sum of every column (secret-shared, never opened by saving). Two states are kept, the latest and
 * the one before it, so that servers that crashed on either side of a session's save can return to
 * a state they all hold ({@link InputServer} agrees on it at start).
 *
 * <p>Saving writes a temporary file, forces it to disk, moves it over the old one and forces the
 * directory: a crash leaves the old file or the new one, never half of one.
 */
final class ServerState {

  /** A state: after {@code session}, with {@code contributors} in all and these sum shares. */
  record Slot(long session, long contributors, long[] sums) {}

  private final Path file; // null: memory only
  private Slot latest;
  private Slot previous;

  private ServerState(Path file, Slot latest, Slot previous) {
    this.file = file;
    this.latest = latest;
    this.previous = previous;
  }

  /** The saved state in {@code file} (null: none kept), or session 0 with {@code words} zeros. */
  static ServerState load(Path file, int words) {
    Slot zero = new Slot(0, 0, new long[words]);
    if (file == null || !Files.exists(file)) {
      return new ServerState(file, zero, zero);
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
      Slot latest = slot(p, "", words);
      Slot previous =
          p.getProperty("previous.session") == null ? zero : slot(p, "previous.", words);
      return new ServerState(file, latest, previous);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the server state " + file, e);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "the server state "
              + file
              + " is damaged ("
              + e.getMessage()
              + "); restore it from a backup, or move it away to start from session 0",
          e);
    }
  }

  private static Slot slot(Properties p, String prefix, int words) {
    long session = Long.parseLong(p.getProperty(prefix + "session").trim());
    long contributors = Long.parseLong(p.getProperty(prefix + "contributors").trim());
    String[] hex = p.getProperty(prefix + "sums").trim().split(",");
    if (hex.length != words) {
      throw new IllegalArgumentException(
          hex.length + " sum words where the session's shape needs " + words);
    }
    long[] sums = new long[words];
    for (int i = 0; i < words; i++) {
      sums[i] = Long.parseUnsignedLong(hex[i], 16);
    }
    return new Slot(session, contributors, sums);
  }

  Slot latest() {
    return latest;
  }

  Slot previous() {
    return previous;
  }

  /** Goes back to the previous state (the servers agreed on it). */
  void rollBack() {
    latest = previous;
  }

  /** Makes {@code next} the latest state and saves both. */
  void advance(Slot next) {
    previous = latest;
    latest = next;
    save();
  }

  private void save() {
    if (file == null) {
      return;
    }
    StringBuilder s = new StringBuilder("# cohort input server state: this server's shares\n");
    append(s, "", latest);
    append(s, "previous.", previous);
    Path dir = file.toAbsolutePath().getParent();
    Path temp = dir.resolve(file.getFileName() + ".tmp");
    try {
      Files.writeString(temp, s, StandardCharsets.UTF_8);
      try (FileChannel c = FileChannel.open(temp, StandardOpenOption.WRITE)) {
        c.force(true);
      }
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
        d.force(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot save the server state to " + file + " (" + e.getMessage() + ")", e);
    }
  }

  private static void append(StringBuilder s, String prefix, Slot slot) {
    s.append(prefix).append("session=").append(slot.session()).append('\n');
    s.append(prefix).append("contributors=").append(slot.contributors()).append('\n');
    s.append(prefix).append("sums=");
    for (int i = 0; i < slot.sums().length; i++) {
      s.append(i == 0 ? "" : ",").append(Long.toHexString(slot.sums()[i]));
    }
    s.append('\n');
  }
}
