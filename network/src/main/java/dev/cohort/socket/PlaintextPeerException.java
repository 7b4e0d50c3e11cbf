package dev.cohort.socket;

import java.io.IOException;

/**
 * A connection that should open with TLS opened with a plaintext Cohort frame: its peer runs in
 * plain TCP ({@code --insecure-plaintext}) and this party with TLS ({@link
 * dev.cohort.transport.ProtocolMismatch}).
 */
final class PlaintextPeerException extends IOException {

  private static final long serialVersionUID = 1L;

  /** The party the peer's hello claims (unauthenticated), -1 when it sent no hello. */
  final int claimed;

  PlaintextPeerException(int claimed, Throwable cause) {
    super("the peer speaks plaintext", cause);
    this.claimed = claimed;
  }
}
