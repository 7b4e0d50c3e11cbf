package dev.cohort.cli;

import dev.cohort.api.AbortException;
import dev.cohort.api.NetworkException;
import dev.cohort.engine.ConfigurationMismatchException;
import dev.cohort.spdz.MaterialException;
import dev.cohort.transport.ProtocolMismatchException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine.ParameterException;

/**
 * The exit codes of {@code cohort}, one per kind of failure, so that scripts and operators can tell
 * a mistake in the configuration from a failed peer, a detected attack, a local disk problem and
 * used-up material. The README's table lists them; {@link #of(Throwable)} classifies a failure by
 * the first cause in its chain that says what happened.
 */
final class ExitCode {

  /** The command did what it was asked. */
  static final int OK = 0;

  /** An unexpected error: a bug in Cohort (please report it with {@code --verbose} output). */
  static final int INTERNAL = 1;

  /**
   * The configuration: bad options, parties file, keys, traces, preprocessing files that cannot be
   * used (another party's, another field, a use record missing or of another dealing), an address
   * this host cannot bind or resolve, settings that differ from a peer's, a dealing larger than the
   * free space. Fix the configuration and run again.
   */
  static final int CONFIGURATION = 2;

  /** A peer could not be reached, disconnected, or stopped answering. Start it (again). */
  static final int PEER = 3;

  /**
   * The protocol aborted: a check failed or a peer sent what an honest party never sends (a failed
   * MAC check, inconsistent shares or broadcasts, a malformed frame). The run's outputs must not be
   * trusted; SPDZ material whose MAC check failed is burned.
   */
  static final int ABORTED = 4;

  /** Reading or writing a local file failed (a full disk, permissions): the message names it. */
  static final int IO = 5;

  /**
   * SPDZ preprocessing ran out or can no longer be used (a MAC check failed on it): deal fresh
   * material with {@code cohort preprocess}.
   */
  static final int MATERIAL = 6;

  /**
   * {@code cohort client}: a server refused the submission (the session had closed, the client
   * already submitted to it, the submission was malformed), or the session left it out (not every
   * server received it, or it failed the servers' check). The message says which; submit again to
   * the next session.
   */
  static final int NOT_COUNTED = 7;

  /** Stopped by Ctrl-C (SIGINT): 128 + 2, as shells report it. */
  static final int INTERRUPTED = 130;

  /** Stopped by SIGTERM: 128 + 15, as shells report it. */
  static final int TERMINATED = 143;

  private ExitCode() {}

  /** The exit code for {@code failure}: the first cause in its chain that says what happened. */
  static int of(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      Integer code = classify(t);
      if (code != null) {
        return code;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return INTERNAL;
  }

  private static Integer classify(Throwable t) {
    if (t instanceof ConfigurationMismatchException
        || t instanceof ProtocolMismatchException
        || t instanceof ParameterException
        || t instanceof BindException
        || t instanceof UnknownHostException
        || t instanceof UnresolvedAddressException
        || t instanceof NoSuchFileException
        || t instanceof IllegalArgumentException) {
      return CONFIGURATION;
    }
    if (t instanceof MaterialException) {
      return MATERIAL;
    }
    if (t instanceof AbortException) {
      return ABORTED;
    }
    if (t instanceof NetworkException) {
      return PEER;
    }
    if (t instanceof UncheckedIOException && t.getCause() != null) {
      return null; // what the I/O error was decides: a bind, a missing file or a full disk
    }
    if (t instanceof IOException) {
      return IO;
    }
    return null;
  }
}
