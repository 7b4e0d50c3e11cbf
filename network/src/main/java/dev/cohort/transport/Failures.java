package dev.cohort.transport;

/**
 * How both transports word a failure: a low-level one (an I/O or TLS exception), and the errors of
 * the connect phase, which tests and operators match on.
 */
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

  /** A peer still missing when the connect timeout ran out, with the reason of its last attempt. */
  public static String notConnected(String peer, long timeoutMillis, String lastAttempt) {
    return peer
        + " did not connect within "
        + timeoutMillis
        + " ms"
        + (lastAttempt == null ? "" : " (last attempt: " + lastAttempt + ")");
  }

  /** A peer that answered but cannot be the party dialed: dialing again cannot help. */
  public static String couldNotConnect(String peer, String reason) {
    return "could not connect to " + peer + ": " + reason;
  }

  /** Why a dial or an accepted connection failed once the handshake timeout closed it. */
  public static String handshakeTimeout(long handshakeMillis) {
    return "did not finish the TLS and id handshakes within " + handshakeMillis + " ms";
  }
}
