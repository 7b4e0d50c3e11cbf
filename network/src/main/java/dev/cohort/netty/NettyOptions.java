package dev.cohort.netty;

import dev.cohort.netty.tls.TlsIdentity;
import java.time.Duration;

/**
 * How a party's Netty transport connects and what it tolerates.
 *
 * @param connectTimeout how long {@link NettyNetwork#connect} waits for every peer, dialing with
 *     backoff, before it gives up naming the first peer still missing
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
 */
public record NettyOptions(
    Duration connectTimeout,
    Duration receiveTimeout,
    Duration handshakeTimeout,
    Duration idleTimeout,
    int maxFrameBytes,
    TlsIdentity tls,
    boolean insecurePlaintext,
    LinkEmulation emulation) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_RECEIVE_TIMEOUT = Duration.ofSeconds(30);
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(15);

  /** 256 MiB: a round of 2^20 Mersenne-127 elements to each peer fits many times. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 28;

  public NettyOptions {
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
  }

  private static void requirePositive(String name, Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(name + " (" + timeout + ") must be positive");
    }
  }

  /** TLS 1.3 with mutual authentication, default timeouts and frame limit. */
  public static NettyOptions tls(TlsIdentity identity) {
    if (identity == null) {
      throw new IllegalArgumentException("TLS identity must not be null");
    }
    return defaults(identity, false);
  }

  /** Plain TCP without authentication or encryption: INSECURE, for loopback benchmarks. */
  public static NettyOptions plaintextInsecure() {
    return defaults(null, true);
  }

  private static NettyOptions defaults(TlsIdentity identity, boolean insecurePlaintext) {
    return new NettyOptions(
        DEFAULT_CONNECT_TIMEOUT,
        DEFAULT_RECEIVE_TIMEOUT,
        DEFAULT_HANDSHAKE_TIMEOUT,
        DEFAULT_IDLE_TIMEOUT,
        DEFAULT_MAX_FRAME_BYTES,
        identity,
        insecurePlaintext,
        LinkEmulation.NONE);
  }

  public NettyOptions withConnectTimeout(Duration timeout) {
    return new NettyOptions(
        timeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation);
  }

  public NettyOptions withReceiveTimeout(Duration timeout) {
    return new NettyOptions(
        connectTimeout,
        timeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation);
  }

  public NettyOptions withHandshakeTimeout(Duration timeout) {
    return new NettyOptions(
        connectTimeout,
        receiveTimeout,
        timeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation);
  }

  public NettyOptions withIdleTimeout(Duration timeout) {
    return new NettyOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        timeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        emulation);
  }

  public NettyOptions withMaxFrameBytes(int bytes) {
    return new NettyOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        bytes,
        tls,
        insecurePlaintext,
        emulation);
  }

  public NettyOptions withEmulation(LinkEmulation links) {
    return new NettyOptions(
        connectTimeout,
        receiveTimeout,
        handshakeTimeout,
        idleTimeout,
        maxFrameBytes,
        tls,
        insecurePlaintext,
        links);
  }
}
