package dev.cohort.clientlink;

import java.time.Duration;

/**
 * What both ends of the client link tolerate and how a server listens.
 *
 * @param maxFrameBytes the largest payload accepted in one frame, either way; a peer that declares
 *     a longer one has its connection closed
 * @param handshakeTimeout how long one connection may take from the TCP connect through the TLS
 *     handshake to the server's admission; a server closes a connection that takes longer, and
 *     {@link ClientLink#connect} fails naming the server
 * @param backlog the server's TCP accept queue: connections the kernel holds while the server is
 *     busy (it caps the value at {@code net.core.somaxconn}); below a burst of clients, the
 *     overflow waits for SYN retransmits, a second or more
 * @param eventLoopThreads the server's event-loop threads (accepting, TLS, frames); a client given
 *     no event loop runs its own with one thread
 */
public record ClientLinkOptions(
    int maxFrameBytes, Duration handshakeTimeout, int backlog, int eventLoopThreads) {

  /** 1 MiB. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 20;

  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

  /** Enough for a thousand clients arriving at once. */
  public static final int DEFAULT_BACKLOG = 4096;

  public ClientLinkOptions {
    if (maxFrameBytes < 1) {
      throw new IllegalArgumentException("max frame bytes (" + maxFrameBytes + ") must be >= 1");
    }
    if (handshakeTimeout == null || handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
      throw new IllegalArgumentException(
          "handshake timeout (" + handshakeTimeout + ") must be positive");
    }
    if (backlog < 1) {
      throw new IllegalArgumentException("backlog (" + backlog + ") must be >= 1");
    }
    if (eventLoopThreads < 1) {
      throw new IllegalArgumentException(
          "event-loop threads (" + eventLoopThreads + ") must be >= 1");
    }
  }

  /** 1 MiB frames, 10 s handshakes, a backlog of 4096, a server event-loop thread per core. */
  public static ClientLinkOptions defaults() {
    return new ClientLinkOptions(
        DEFAULT_MAX_FRAME_BYTES,
        DEFAULT_HANDSHAKE_TIMEOUT,
        DEFAULT_BACKLOG,
        Runtime.getRuntime().availableProcessors());
  }

  public ClientLinkOptions withMaxFrameBytes(int bytes) {
    return new ClientLinkOptions(bytes, handshakeTimeout, backlog, eventLoopThreads);
  }

  public ClientLinkOptions withHandshakeTimeout(Duration timeout) {
    return new ClientLinkOptions(maxFrameBytes, timeout, backlog, eventLoopThreads);
  }

  public ClientLinkOptions withBacklog(int connections) {
    return new ClientLinkOptions(maxFrameBytes, handshakeTimeout, connections, eventLoopThreads);
  }

  public ClientLinkOptions withEventLoopThreads(int threads) {
    return new ClientLinkOptions(maxFrameBytes, handshakeTimeout, backlog, threads);
  }
}
