package dev.cohort.transport;

import dev.cohort.transport.tls.TlsIdentity;
import java.time.Duration;

/**
 * How a party's transport (Netty or sockets) connects and what it tolerates. The socket transport
 * refuses link emulation and uses no idle timeout (it sends no heartbeats).
 *
 * @param connectTimeout how long {@code connect} waits for every peer, dialing with backoff, before
 *     it gives up naming the first peer still missing
 * @param receiveTimeout how long an exchange waits for a peer's frame before it fails naming it
 * @param handshakeTimeout how long one connection may take to finish the TLS handshake and the
 *     exchange of party ids before it is closed (a dialer then dials again)
 * @param idleTimeout how long a connected peer may send nothing at all before the connection is
 *     closed and the peer named as gone silent; each side sends a heartbeat after a third of this
 *     without other traffic, so a live but busy peer is never mistaken for a dead one
 * @param maxFrameBytes the largest frame accepted from a peer (and sent to one), counting channel,
 *     round and payload
 * @param tls this party's CA, certificate and key; null only together with {@code
 *     insecurePlaintext}
 * @param insecurePlaintext plain TCP, unauthenticated and unencrypted: for benchmarks on loopback
 *     only
 * @param emulation latency and bandwidth cap added to every outbound link, for experiments
 * @param busyPoll how long the Netty transport's threads keep looking for work (the party thread
 *     for its round's frames, the event loop for frames and tasks) before they go to sleep; zero:
 *     sleep at once. A round shorter than this costs no wake-ups (see {@code NettyTransport}); the
 *     price is up to this much CPU time per thread and wait, and less after waits longer than this
 *     (the threads then poll less, down to not at all). The event loop does not poll under link
 *     emulation; the socket transport blocks in its reads and ignores it.
 */
public record TransportOptions(
    Duration connectTimeout,
    Duration receiveTimeout,
    Duration handshakeTimeout,
    Duration idleTimeout,
    int maxFrameBytes,
    TlsIdentity tls,
    boolean insecurePlaintext,
    LinkEmulation emulation,
    Duration busyPoll) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_RECEIVE_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(15);

  /**
   * 100 µs: longer than a round of a dependent multiplication among 3 parties on loopback, so a
   * chain of them runs without sleeping.
   */
  public static final Duration DEFAULT_BUSY_POLL = Duration.ofNanos(100_000);

  /** 256 MiB: a round of 2^20 Mersenne-127 elements to each peer fits many times. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 28;

  public TransportOptions {
    requirePositive("connect timeout", connectTimeout);
    requirePositive("receive timeout", receiveTimeout);
    requirePositive("handshake timeout", handshakeTimeout);
    requirePositive("idle timeout", idleTimeout);
    if (idleTimeout.toMillis() < 3) {
      throw new IllegalArgumentException(
          "idle timeout (" + idleTimeout + ") must be >= 3 ms: heartbeats go at a third of it");
    }
    if (maxFrameBytes < 16) {
      throw new IllegalArgumentException("max frame bytes (" + maxFrameBytes + ") must be >= 16");
    }
    if (tls == null && !insecurePlaintext) {
      throw new IllegalArgumentException(
          "a TLS identity is required unless insecurePlaintext is set explicitly");
    }
    if (tls != null && insecurePlaintext) {
      throw new IllegalArgumentException("insecurePlaintext is set but a TLS identity is given");
    }
    if (emulation == null) {
      throw new IllegalArgumentException("emulation must not be null (LinkEmulation.NONE: none)");
    }
    if (busyPoll == null || busyPoll.isNegative()) {
      throw new IllegalArgumentException(
          "busy poll (" + busyPoll + ") must be zero or positive (zero: sleep at once)");
    }
  }

  private static void requirePositive(String name, Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(name + " (" + timeout + ") must be positive");
    }
  }

  /** TLS 1.3 with mutual authentication, default timeouts and frame limit. */
  public static TransportOptions tls(TlsIdentity identity) {
    if (identity == null) {
      throw new IllegalArgumentException("TLS identity must not be null");
    }
    return defaults(identity, false);
  }

  /** Plain TCP without authentication or encryption: INSECURE, for loopback benchmarks. */
  public static TransportOptions plaintextInsecure() {
    return defaults(null, true);
  }

  private static TransportOptions defaults(TlsIdentity identity, boolean insecurePlaintext) {
    return new TransportOptions(
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_RECEIVE_TIMEOUT,
        DEFAULT_HANDSHAKE_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_FRAME_BYTES,
        identity,
        insecurePlaintext,
        LinkEmulation.NONE,
        DEFAULT_BUSY_POLL);
  }

  public TransportOptions withConnectTimeout(Duration timeout) {
    return new TransportOptions(
        timeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation,
        busyPoll);
  }

  public TransportOptions withReceiveTimeout(Duration timeout) {
    return new TransportOptions(
        connectTimeout,
        timeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation,
        busyPoll);
  }

  public TransportOptions withHandshakeTimeout(Duration timeout) {
    return new TransportOptions(
        connectTimeout,
        receiveTimeout,
        timeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation,
        busyPoll);
  }

  public TransportOptions withIdleTimeout(Duration timeout) {
    return new TransportOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        timeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation,
        busyPoll);
  }

  public TransportOptions withMaxFrameBytes(int bytes) {
    return new TransportOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        bytes,
        tls,
        insecurePlaintext,
        emulation,
        busyPoll);
  }

  public TransportOptions withEmulation(LinkEmulation links) {
    return new TransportOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        links,
        busyPoll);
  }

  /**
   * The same options with the Netty transport's threads polling for {@code poll} before sleeping.
   */
  public TransportOptions withBusyPoll(Duration poll) {
    return new TransportOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation,
        poll);
  }
}
