package dev.cohort.netty.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Turns one connection's bytes into {@link InboundFrame}s (format in {@link FrameCodec}); the
 * buffer never leaves this class; heartbeats stop here. Invariant: data frames come out with rounds
 * 0, 1, 2, ... and none larger than the limit.
 *
 * <p>A frame longer than the limit (rejected as soon as its length field arrives, before its bytes
 * are buffered), an unknown channel, a round out of sequence, a malformed hello or a connection
 * that ends inside a frame is a protocol error: the decoder emits one {@link InboundFrame.Error}
 * with the reason, discards everything after it and closes the connection.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

  private final int maxFrameBytes;
  private int nextRound;
  private boolean failed;

  /** {@code maxFrameBytes} bounds the length field: the bytes after it. */
  public FrameDecoder(int maxFrameBytes) {
    if (maxFrameBytes < FrameCodec.HEADER_BYTES + 8) {
      throw new IllegalArgumentException(
          "max frame bytes (" + maxFrameBytes + ") must be >= " + (FrameCodec.HEADER_BYTES + 8));
    }
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (!failed && in.readableBytes() >= FrameCodec.LENGTH_BYTES) {
      int length = in.getInt(in.readerIndex());
      if (length < FrameCodec.HEADER_BYTES || length > maxFrameBytes) {
        fail(
            ctx,
            in,
            out,
            length < FrameCodec.HEADER_BYTES
                ? "frame length (" + length + ") is shorter than its 8-byte header"
                : "frame of " + length + " bytes exceeds the limit of " + maxFrameBytes + " bytes");
        return;
      }
      if (in.readableBytes() < FrameCodec.LENGTH_BYTES + length) {
        return;
      }
      in.skipBytes(FrameCodec.LENGTH_BYTES);
      int channel = in.readInt();
      int round = in.readInt();
      int payload = length - FrameCodec.HEADER_BYTES;
      String error = frame(channel, round, payload, in, out);
      if (error != null) {
        fail(ctx, in, out, error);
        return;
      }
    }
    if (failed) {
      in.skipBytes(in.readableBytes());
    }
  }

  /** Reads one frame's payload into {@code out}; returns the reason when it is malformed. */
  private String frame(int channel, int round, int payload, ByteBuf in, List<Object> out) {
    switch (channel) {
      case FrameCodec.DATA -> {
        if (payload % 8 != 0) {
          in.skipBytes(payload);
          return "data frame payload of " + payload + " bytes is not a whole number of words";
        }
        if (round != nextRound) {
          in.skipBytes(payload);
          return "frame for round " + round + " arrived when round " + nextRound + " was due";
        }
        long[] words = new long[payload / 8];
        in.nioBuffer(in.readerIndex(), payload)
            .order(ByteOrder.BIG_ENDIAN)
            .asLongBuffer()
            .get(words);
        in.skipBytes(payload);
        nextRound++;
        out.add(
            new InboundFrame.Data(
                round, words, FrameCodec.LENGTH_BYTES + FrameCodec.HEADER_BYTES + payload));
        return null;
      }
      case FrameCodec.HELLO -> {
        long magic = payload == 8 ? in.readLong() : 0;
        if (payload != 8 || magic != FrameCodec.MAGIC) {
          in.skipBytes(payload == 8 ? 0 : payload);
          return "hello is not a Cohort hello (wrong protocol or version)";
        }
        out.add(new InboundFrame.Hello(round));
        return null;
      }
      case FrameCodec.HEARTBEAT -> {
        if (payload != 0) {
          in.skipBytes(payload);
          return "heartbeat with a payload of " + payload + " bytes";
        }
        return null; // it kept the connection from going idle; nothing to hand on
      }
      case FrameCodec.ABORT -> {
        String reason = in.readCharSequence(payload, StandardCharsets.UTF_8).toString();
        out.add(new InboundFrame.Abort(round, reason));
        return null;
      }
      default -> {
        in.skipBytes(payload);
        return "frame on unknown channel " + channel;
      }
    }
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    decode(ctx, in, out);
    if (!failed && in.isReadable()) {
      fail(
          ctx,
          in,
          out,
          "connection closed inside a frame (" + in.readableBytes() + " bytes of it arrived)");
    }
  }

  private void fail(ChannelHandlerContext ctx, ByteBuf in, List<Object> out, String reason) {
    failed = true;
    in.skipBytes(in.readableBytes());
    out.add(new InboundFrame.Error(reason));
  }

  /** Closes after a failure only once the frames decoded before it have been handed on. */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    super.channelRead(ctx, msg);
    if (failed && ctx.channel().isOpen()) {
      ctx.close();
    }
  }
}
