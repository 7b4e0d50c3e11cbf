package dev.cohort.transport;

import dev.cohort.api.NetworkException;

/**
 * A dialed peer speaks the other protocol: TLS where this party runs with {@code
 * --insecure-plaintext}, or the reverse ({@link ProtocolMismatch}). It ends {@code connect} at
 * once, as dialing again cannot help. A {@link NetworkException} whose cause is the configuration,
 * not a failed peer, so that a caller can tell it apart (say, for an exit code) by its type; the
 * message names the peer, its address and the setting.
 */
public final class ProtocolMismatchException extends NetworkException {

  private static final long serialVersionUID = 1L;

  public ProtocolMismatchException(String message) {
    super(message);
  }

  public ProtocolMismatchException(String message, Throwable cause) {
    super(message, cause);
  }
}
