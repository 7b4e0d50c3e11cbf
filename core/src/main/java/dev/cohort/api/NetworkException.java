package dev.cohort.api;

/**
 * Talking to a peer failed: it disconnected, failed, or sent nothing within the timeout. The
 * message names the peer and the round.
 */
public class NetworkException extends CohortException {

  public NetworkException(String message) {
    super(message);
  }

  public NetworkException(String message, Throwable cause) {
    super(message, cause);
  }
}
