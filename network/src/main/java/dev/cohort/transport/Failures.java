package dev.cohort.transport;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.regex.Pattern;

/**
 * How both transports word a failure: a low-level one (an I/O or TLS exception), and the errors of
 * the connect phase, which tests and operators match on.
 */
public final class Failures {

  /** Longer messages are cut: some carry the offending bytes in hex (a non-TLS record). */
  private static final int MAX_REASON = 160;

  /**
   * How native epoll words a failed system call, "bind(..) failed with error(-98): " before the
   * operating system's own words (older Netty leaves the error number out): cut, so a reason reads
   * the same on NIO and epoll.
   */
  private static final Pattern NATIVE_CALL =
      Pattern.compile("^\\w+\\(\\.\\.\\) failed(?: with error\\(-?\\d+\\))?: ");

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
    message = NATIVE_CALL.matcher(message).replaceFirst("");
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

  /**
   * A party cannot listen where it was told to: the port is taken (most often by the same party
   * started twice), the address is not one of this host's, or the port needs privileges. The
   * message names the address, the cause and a likely fix. It is a local problem of this party's
   * configuration, not a peer's failure, so not a {@link NetworkException}: an {@link
   * UncheckedIOException} whose cause is the I/O error ({@link BindException} for these three), so
   * callers can tell a bind failure from other errors by the cause's type.
   */
  public static RuntimeException cannotListen(int self, InetSocketAddress listen, Throwable cause) {
    return cannotListen(PartyId.of(self).toString(), listen, cause);
  }

  /**
   * As {@link #cannotListen(int, InetSocketAddress, Throwable)} for any listener of a party's
   * process ({@code listener} starts the message, e.g. {@code "metrics endpoint"}), so every server
   * of the project words a bind failure the same way.
   */
  public static RuntimeException cannotListen(
      String listener, InetSocketAddress listen, Throwable cause) {
    String reason = describe(cause);
    String hint = "";
    if (reason.contains("already in use")) {
      hint = " (is this party running already, or another program on that port?)";
    } else if (reason.contains("assign requested address")) {
      hint = " (is " + listen.getHostString() + " an address of this host?)";
    } else if (reason.contains("Permission denied")) {
      hint = " (ports below 1024 need privileges)";
    }
    String message =
        listener
            + " cannot listen on "
            + listen.getHostString()
            + ":"
            + listen.getPort()
            + ": "
            + reason
            + hint;
    if (!(cause instanceof IOException io)) {
      return new NetworkException(message, cause);
    }
    if (hint.isEmpty() || io instanceof BindException) {
      return new UncheckedIOException(message, io);
    }
    // native epoll reports a failed bind as a plain IOException: keep the documented cause type
    BindException bind = new BindException(reason);
    bind.initCause(io);
    return new UncheckedIOException(message, bind);
  }

  /** Why a dial or an accepted connection failed once the handshake timeout closed it. */
  public static String handshakeTimeout(long handshakeMillis) {
    return "did not finish the TLS and id handshakes within " + handshakeMillis + " ms";
  }
}
