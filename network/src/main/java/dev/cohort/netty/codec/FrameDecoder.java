package dev.cohort.netty.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Turns one connection's bytes into {@link InboundFrame}s (format in {@link FrameCodec}); the
 * buffers never leave this class; heartbeats stop here. Invariant: data frames come out with rounds
 * 0, 1, 2, ... and none larger than the limit.
 *
 * <p>A data frame's payload streams straight from the incoming buffers into its word array as the
 * bytes arrive (a word split across reads waits in a register), so a large frame is copied once on
 * its way in rather than gathered into a growing buffer first and copied out of it afterwards. Only
 * the 12-byte prefix and the small payloads of hellos and aborts are collected.
 *
 * <p>A frame longer than the limit (rejected as soon as its length field arrives, before its bytes
 * are buffered), an unknown channel, a round out of sequence, a malformed hello or heartbeat, a
 * data payload that is not whole words, or a connection that ends inside a frame is a protocol
 * error: the decoder emits one {@link InboundFrame.Error} with the reason, discards everything
 * after it and closes the connection. All of these but the last are known from the frame's first 12
 * bytes.
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter {

  private static final int PREFIX = FrameCodec.LENGTH_BYTES + FrameCodec.HEADER_BYTES;

  private final int maxFrameBytes;
  private int nextRound;
  private boolean failed;

  // the frame being read: its prefix, then its payload
  private final byte[] prefix = new byte[PREFIX];
  private int prefixFill;
  private int channel;
  private int round;
  private int payload; // bytes after the prefix
  private int payloadFill;
  private long[] words; // a data frame's payload
  private int wordFill;
  private long partial; // the bytes so far of a word split across reads, big-endian
  private int partialBytes;
  private byte[] small; // a hello's or an abort's payload

  /** {@code maxFrameBytes} bounds the length field: the bytes after it. */
  public FrameDecoder(int maxFrameBytes) {
    if (maxFrameBytes < FrameCodec.HEADER_BYTES + 8) {
      throw new IllegalArgumentException(
          "max frame bytes (" + maxFrameBytes + ") must be >= " + (FrameCodec.HEADER_BYTES + 8));
    }
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof ByteBuf in)) {
      ctx.fireChannelRead(msg);
      return;
    }
    try {
      while (!failed && in.isReadable()) {
        if (prefixFill < PREFIX) {
          readPrefix(ctx, in);
        } else {
          readPayload(ctx, in);
        }
      }
    } finally {
      in.release();
    }
    if (failed && ctx.channel().isOpen()) {
      ctx.close();
    }
  }

  /** Collects the prefix; checks the length as soon as it is there and the rest once complete. */
  private void readPrefix(ChannelHandlerContext ctx, ByteBuf in) {
    boolean hadLength = prefixFill >= FrameCodec.LENGTH_BYTES;
    int n = Math.min(PREFIX - prefixFill, in.readableBytes());
    in.readBytes(prefix, prefixFill, n);
    prefixFill += n;
    if (!hadLength && prefixFill >= FrameCodec.LENGTH_BYTES) {
      int length = intAt(0);
      String error = FrameCodec.lengthError(length, maxFrameBytes);
      if (error != null) {
        fail(ctx, error);
        return;
      }
      payload = length - FrameCodec.HEADER_BYTES;
    }
    if (prefixFill == PREFIX) {
      channel = intAt(4);
      round = intAt(8);
      String error = begin();
      if (error != null) {
        fail(ctx, error);
      } else if (payload == 0) {
        finish(ctx);
      }
    }
  }

  /** Checks the frame's header and prepares for its payload; returns the reason when malformed. */
  private String begin() {
    String error = FrameCodec.headerError(channel, round, payload, nextRound);
    if (error != null) {
      return error;
    }
    if (channel == FrameCodec.DATA) {
      words = new long[payload / 8];
    } else if (channel != FrameCodec.HEARTBEAT) {
      small = new byte[payload];
    }
    return null;
  }

  private void readPayload(ChannelHandlerContext ctx, ByteBuf in) {
    int n = Math.min(payload - payloadFill, in.readableBytes());
    payloadFill += n;
    if (words == null) {
      in.readBytes(small, payloadFill - n, n);
    } else {
      for (; partialBytes > 0 && n > 0; n--) {
        pushByte(in.readByte());
      }
      int whole = n / 8;
      if (whole > 0) {
        // one bulk copy with the byte swap, from the incoming buffer's memory into the words
        in.nioBuffer(in.readerIndex(), 8 * whole)
            .order(ByteOrder.BIG_ENDIAN)
            .asLongBuffer()
            .get(words, wordFill, whole);
        in.skipBytes(8 * whole);
        wordFill += whole;
        n -= 8 * whole;
      }
      for (; n > 0; n--) {
        pushByte(in.readByte());
      }
    }
    if (payloadFill == payload) {
      finish(ctx);
    }
  }

  private void pushByte(byte b) {
    partial = (partial << 8) | (b & 0xff);
    if (++partialBytes == 8) {
      words[wordFill++] = partial;
      partial = 0;
      partialBytes = 0;
    }
  }

  /** The frame is complete: hands it on and gets ready for the next one. */
  private void finish(ChannelHandlerContext ctx) {
    InboundFrame frame = null;
    switch (channel) {
      case FrameCodec.DATA -> {
        nextRound++;
        frame = new InboundFrame.Data(round, words, PREFIX + payload);
      }
      case FrameCodec.HELLO -> {
        if (longAt(small) != FrameCodec.MAGIC) {
          fail(ctx, FrameCodec.NOT_A_HELLO);
          return;
        }
        frame = new InboundFrame.Hello(round);
      }
      case FrameCodec.ABORT ->
          frame = new InboundFrame.Abort(round, new String(small, StandardCharsets.UTF_8));
      default -> {} // a heartbeat kept the connection from going idle; nothing to hand on
    }
    prefixFill = 0;
    payload = 0;
    payloadFill = 0;
    words = null;
    wordFill = 0;
    small = null;
    if (frame != null) {
      ctx.fireChannelRead(frame);
    }
  }

  /** A connection that ends inside a frame lost part of it. */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (!failed && prefixFill > 0) {
      failed = true;
      ctx.fireChannelRead(
          new InboundFrame.Error(
              "connection closed inside a frame ("
                  + (prefixFill + payloadFill)
                  + " bytes of it arrived)"));
    }
    ctx.fireChannelInactive();
  }

  private void fail(ChannelHandlerContext ctx, String reason) {
    failed = true;
    words = null;
    small = null;
    ctx.fireChannelRead(new InboundFrame.Error(reason));
  }

  private int intAt(int at) {
    return (prefix[at] & 0xff) << 24
        | (prefix[at + 1] & 0xff) << 16
        | (prefix[at + 2] & 0xff) << 8
        | (prefix[at + 3] & 0xff);
  }

  private static long longAt(byte[] b) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[i] & 0xff);
    }
    return v;
  }
}
