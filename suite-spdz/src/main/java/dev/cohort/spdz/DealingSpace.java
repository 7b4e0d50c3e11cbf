package dev.cohort.spdz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.ToLongFunction;

/**
 * Whether a dealing fits: in the free space of the directory's file system and under a limit the
 * caller sets, checked before anything is written ({@link DealerFiles#write}).
 */
public final class DealingSpace {

  private DealingSpace() {}

  /**
   * A dealing that does not fit: in the free space of the directory's file system, or under the
   * limit the caller set. Thrown before anything is written.
   */
  public static final class InsufficientSpaceException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final long needed;
    private final long available;

    InsufficientSpaceException(String message, long needed, long available) {
      super(message);
      this.needed = needed;
      this.available = available;
    }

    /** Bytes the dealing needs ({@link Long#MAX_VALUE}: more than a long can count). */
    public long needed() {
      return needed;
    }

    /** Bytes free, or the limit set. */
    public long available() {
      return available;
    }
  }

  /** Refuses a dealing of {@code needed} bytes that exceeds {@code maxBytes} or the free space. */
  static void check(Path directory, long needed, long maxBytes, ToLongFunction<Path> freeSpace)
      throws IOException {
    if (needed > maxBytes) {
      throw new InsufficientSpaceException(
          "this dealing needs "
              + bytes(needed)
              + ", more than the limit of "
              + bytes(maxBytes)
              + "; deal less material or raise the limit",
          needed,
          maxBytes);
    }
    Path existing = directory.toAbsolutePath();
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return;
    }
    long free = freeSpace.applyAsLong(existing);
    if (needed > free) {
      throw new InsufficientSpaceException(
          "this dealing needs "
              + bytes(needed)
              + " but the file system of "
              + directory
              + " has "
              + bytes(free)
              + " free; deal less material (the demo's --sessions give its exact needs) or free"
              + " space; nothing was written",
          needed,
          free);
    }
  }

  /** {@code n} bytes as a person reads them: "79.0 GB (79012345678 bytes)". */
  static String bytes(long n) {
    if (n == Long.MAX_VALUE) {
      return "more than 9.2 EB";
    }
    String[] units = {"kB", "MB", "GB", "TB", "PB", "EB"};
    if (n < 1000) {
      return n + " bytes";
    }
    double v = n;
    int u = -1;
    while (v >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    return String.format(java.util.Locale.ROOT, "%.1f %s (%d bytes)", v, units[u], n);
  }
}
