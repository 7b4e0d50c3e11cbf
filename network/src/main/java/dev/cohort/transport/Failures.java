package dev.cohort.transport;

/** How both transports word a low-level failure (an I/O or TLS exception) in their messages. */
public final class Failures {

  /** Longer messages are cut: some carry the offending bytes in hex (a non-TLS record). */
  private static final int MAX_REASON = 160;

  private Failures() {}

  /** The innermost message of {@code cause}: what went wrong, without wrappers. */
  public static String describe(Throwable cause) {
    Throwable t = cause;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String message = t.getMessage();
    if (message == null) {
      return t.getClass().getSimpleName();
    }
    return message.length() <= MAX_REASON
        ? message
        : message.substring(0, MAX_REASON) + "... (" + message.length() + " characters)";
  }
}
