package dev.cohort.netty;

import dev.cohort.netty.tls.TlsIdentity;
import java.time.Duration;

/**
 * How a party's Netty transport connects and what it tolerates.
 *
 * @param connectTimeout how long {@link NettyNetwork#connect} waits for every peer, dialing with
 *     backoff, before it gives up naming the first peer still missing
 * @param receiveTimeout how long an exchange waits for a peer's frame before it fails naming it
 * @param maxFrameBytes the largest frame accepted from a peer (and sent to one), counting channel,
 *     round and payload
 * @param tls this party's CA, certificate and key; null only together with {@code
 *     insecurePlaintext}
 * @param insecurePlaintext plain TCP, unauthenticated and unencrypted: for benchmarks on loopback
 *     only
 */
public record NettyOptions(
    Duration connectTimeout,
    Duration receiveTimeout,
    int maxFrameBytes,
    TlsIdentity tls,
    boolean insecurePlaintext) {

  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration DEFAULT_RECEIVE_TIMEOUT = Duration.ofSeconds(30);

  /** 256 MiB: a round of 2^20 Mersenne-127 elements to each peer fits many times. */
  public static final int DEFAULT_MAX_FRAME_BYTES = 1 << 28;

  public NettyOptions {
    if (connectTimeout == null || connectTimeout.isNegative() || connectTimeout.isZero()) {
      throw new IllegalArgumentException(
          "connect timeout (" + connectTimeout + ") must be positive");
    }
    if (receiveTimeout == null || receiveTimeout.isNegative() || receiveTimeout.isZero()) {
      throw new IllegalArgumentException(
          "receive timeout (" + receiveTimeout + ") must be positive");
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
  }

  /** TLS 1.3 with mutual authentication, default timeouts and frame limit. */
  public static NettyOptions tls(TlsIdentity identity) {
    if (identity == null) {
      throw new IllegalArgumentException("TLS identity must not be null");
    }
    return new NettyOptions(
        DEFAULT_CONNECT_TIMEOUT, DEFAULT_RECEIVE_TIMEOUT, DEFAULT_MAX_FRAME_BYTES, identity, false);
  }

  /** Plain TCP without authentication or encryption: INSECURE, for loopback benchmarks. */
  public static NettyOptions plaintextInsecure() {
    return new NettyOptions(
        DEFAULT_CONNECT_TIMEOUT, DEFAULT_RECEIVE_TIMEOUT, DEFAULT_MAX_FRAME_BYTES, null, true);
  }

  public NettyOptions withConnectTimeout(Duration timeout) {
    return new NettyOptions(timeout, receiveTimeout, maxFrameBytes, tls, insecurePlaintext);
  }

  public NettyOptions withReceiveTimeout(Duration timeout) {
    return new NettyOptions(connectTimeout, timeout, maxFrameBytes, tls, insecurePlaintext);
  }

  public NettyOptions withMaxFrameBytes(int bytes) {
    return new NettyOptions(connectTimeout, receiveTimeout, bytes, tls, insecurePlaintext);
  }
}
