package dev.cohort.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Properties;

/**
 * The statistics server's state between sessions: the last finished session and the running sum
 * after it. Saved (every session, or every N with {@code --checkpoint-every}, and always at the end
 * of a run) by writing a temporary file next to the checkpoint, forcing it to disk, moving it over
 * the old one and forcing the directory, so a crash (of the process or of the machine) leaves
 * either the old state or the new one, never half of one. A run restarted from an older state runs
 * the sessions after it again, from the saved sum: none is lost or counted twice.
 *
 * <pre>
 * # cohort distance-average checkpoint
 * lastSession=42
 * runningSum=123456
 * devices=2
 * </pre>
 *
 * <p>With no file (or no path) the state starts at session 0 with sum 0.
 */
final class Checkpoint {

  /** The state after session {@code lastSession}; session 0 means nothing has run. */
  record State(long lastSession, long runningSum, int devices) {}

  private final Path file; // null: keep the state in memory only

  Checkpoint(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  /** The saved state, or session 0 for {@code devices} devices when there is none yet. */
  State load(int devices) {
    if (file == null || !Files.exists(file)) {
      return new State(0, 0, devices);
    }
    Properties p = new Properties();
    try {
      p.load(new java.io.StringReader(Files.readString(file, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read checkpoint " + file, e);
    }
    State state;
    try {
      state =
          new State(
              Long.parseLong(required(p, "lastSession")),
              Long.parseLong(required(p, "runningSum")),
              Integer.parseInt(required(p, "devices")));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("checkpoint " + file + " is corrupt: " + e.getMessage());
    }
    if (state.devices() != devices) {
      throw new IllegalArgumentException(
          "checkpoint "
              + file
              + " is of a run with "
              + state.devices()
              + " devices, not "
              + devices
              + ": delete it to start over");
    }
    if (state.lastSession() < 0) {
      throw new IllegalArgumentException("checkpoint " + file + " is corrupt: lastSession < 0");
    }
    return state;
  }

  private String required(Properties p, String key) {
    String value = p.getProperty(key);
    if (value == null) {
      throw new IllegalArgumentException("checkpoint " + file + " is corrupt: no " + key);
    }
    return value.strip();
  }

  /** Replaces the saved state atomically; does nothing without a file. */
  void save(State state) {
    if (file == null) {
      return;
    }
    String text =
        "# cohort distance-average checkpoint\n"
            + "lastSession="
            + state.lastSession()
            + "\nrunningSum="
            + state.runningSum()
            + "\ndevices="
            + state.devices()
            + "\n";
    Path absolute = file.toAbsolutePath();
    Path temporary = absolute.resolveSibling(absolute.getFileName() + ".tmp");
    try {
      Files.createDirectories(absolute.getParent());
      try (FileChannel out =
          FileChannel.open(
              temporary,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer bytes = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
        out.force(true);
      }
      try {
        Files.move(
            temporary,
            absolute,
            StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING);
      }
      forceDirectory(absolute.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write checkpoint " + file, e);
    }
  }

  /** Makes the move durable where the platform can force a directory (not on Windows). */
  private static void forceDirectory(Path directory) {
    try (FileChannel d = FileChannel.open(directory, StandardOpenOption.READ)) {
      d.force(true);
    } catch (IOException e) {
      // Directories cannot be opened or forced on some platforms: the move is still atomic.
    }
  }
}
