package dev.cohort.netty;

import dev.cohort.api.PartyId;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.netty.codec.FrameCodec;
import dev.cohort.netty.codec.InboundFrame;
import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The {@link Channel} of one party over Netty: a verified connection to every peer (made by {@link
 * NettyNetwork#connect}). Each exchange writes and flushes exactly one data frame per peer and then
 * takes one frame from each peer's {@link PeerLink}, waiting at most the receive timeout.
 *
 * <p>Byte counts in {@link #stats} are whole frames as they cross the connection (length field,
 * header and payload), before TLS adds its record overhead.
 *
 * <p>Not thread-safe: one party thread owns it, as the engine does.
 */
public final class NettyTransport implements Channel {

  private final NettyNetwork network;
  private final PeerLink[] links;
  private final Duration receiveTimeout;
  private final int maxFrameBytes;
  private final TrafficStats stats;
  private int round;
  private boolean closed;

  NettyTransport(NettyNetwork network, PeerLink[] links, NettyOptions options) {
    this.network = network;
    this.links = links;
    this.receiveTimeout = options.receiveTimeout();
    this.maxFrameBytes = options.maxFrameBytes();
    this.stats = new TrafficStats(links.length);
  }

  @Override
  public int self() {
    return network.self();
  }

  /** Where this party listens. */
  public InetSocketAddress localAddress() {
    return network.localAddress();
  }

  @Override
  public int parties() {
    return links.length;
  }

  @Override
  public long[][] exchange(long[][] outgoing, int[] lengths) {
    if (closed) {
      throw new IllegalStateException(PartyId.of(self()) + "'s channel is closed");
    }
    if (outgoing.length != links.length || lengths.length != links.length) {
      throw new IllegalArgumentException(
          "outgoing ("
              + outgoing.length
              + ") and lengths ("
              + lengths.length
              + ") must have one entry per party ("
              + links.length
              + ")");
    }
    int self = self();
    for (int p = 0; p < links.length; p++) {
      if (p != self) {
        check(p, outgoing[p], lengths[p]); // all before any frame leaves: a round is all or none
      }
    }
    for (int p = 0; p < links.length; p++) {
      if (p != self) {
        send(p, outgoing[p], lengths[p]);
      }
    }
    long[][] incoming = new long[links.length][];
    for (int p = 0; p < links.length; p++) {
      if (p != self) {
        InboundFrame.Data frame = links[p].take(round, receiveTimeout);
        incoming[p] = frame.words();
        stats.received(p, frame.wireBytes());
      }
    }
    round++;
    return incoming;
  }

  private void check(int peer, long[] words, int length) {
    int available = words == null ? 0 : words.length;
    if (length < 0 || length > available) {
      throw new IllegalArgumentException(
          "length for "
              + PartyId.of(peer)
              + " ("
              + length
              + ") must be in [0, "
              + available
              + "], the words given");
    }
    long bytes = FrameCodec.dataFrameBytes(length);
    if (bytes - FrameCodec.LENGTH_BYTES > maxFrameBytes) {
      throw new IllegalStateException(
          "frame of "
              + (bytes - FrameCodec.LENGTH_BYTES)
              + " bytes for "
              + PartyId.of(peer)
              + " exceeds the limit of "
              + maxFrameBytes
              + " bytes: raise maxFrameBytes or lower the engine's batch size");
    }
  }

  private void send(int peer, long[] words, int length) {
    io.netty.channel.Channel channel = links[peer].channel();
    if (!channel.isActive()) {
      return; // the peer is gone: taking its frame reports why, naming it
    }
    ByteBuf frame = FrameCodec.data(channel.alloc(), round, words, length);
    int bytes = frame.readableBytes();
    channel.writeAndFlush(frame); // a failed write shows up as the peer's failure in take
    stats.sent(peer, bytes);
  }

  @Override
  public TrafficStats stats() {
    return stats;
  }

  /** Sends every peer an abort frame naming {@code reason}, then closes. */
  @Override
  public void abort(String reason) {
    if (closed) {
      return;
    }
    for (int p = 0; p < links.length; p++) {
      if (p != self()) {
        io.netty.channel.Channel channel = links[p].channel();
        if (!channel.isActive()) {
          continue;
        }
        channel.writeAndFlush(FrameCodec.abort(channel.alloc(), round, reason));
      }
    }
    close();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      network.close();
    }
  }
}
