package dev.cohort.netty.codec;

import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.Arrays;

/**
 * Turns one connection's bytes into {@link InboundFrame}s (format in {@link WireFormat}); the
 * buffers never leave this class; heartbeats stop here. Invariant: data frames come out with rounds
 * 0, 1, 2, ... and none larger than the limit, and what the decoder holds of a frame grows only
 * with the frame's bytes that have arrived.
 *
 * <p>A data frame's payload streams straight from the incoming buffers into its word array as the
 * bytes arrive (a word split across reads waits in a register), so a large frame is copied once on
 * its way in rather than gathered into a growing buffer first and copied out of it afterwards; the
 * words are little-endian ({@link WireFormat#WORD_ORDER}), so that copy is a plain one. Only the
 * 12-byte prefix and the small payloads of hellos and aborts are collected.
 *
 * <p>Memory goes with bytes received, never with a length a peer declares: until the hello nothing
 * longer than a hello is accepted; a data frame over {@link WireFormat#EAGER_WORDS} words starts
 * with an array of at most that size that grows as its words arrive ({@link
 * WireFormat#grownWords}); an abort keeps the first {@link WireFormat#MAX_REASON_BYTES} bytes of
 * its reason and skips the rest.
 *
 * <p>A connection that opens with the bytes of a TLS record (its peer speaks TLS, this party plain
 * TCP) is refused with {@link WireFormat#SPEAKS_TLS}, not with the length those bytes would spell.
 *
 * <p>A frame longer than the limit (rejected as soon as its length field arrives, before its bytes
 * are buffered), an unknown channel, a round out of sequence, a malformed hello or heartbeat, a
 * data payload that is not whole words, or a connection that ends inside a frame is a protocol
 * error: the decoder emits one {@link InboundFrame.Error} with the reason, discards everything
 * after it and closes the connection. All of these but the last are known from the frame's first 12
 * bytes.
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter {

  private static final int PREFIX = WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES;

  private final int maxFrameBytes;
  private int nextRound;
  private boolean failed;
  private boolean helloSeen; // until then nothing longer than a hello may come

  // the frame being read: its prefix, then its payload
  private final byte[] prefix = new byte[PREFIX];
  private int prefixFill;
  private int channel;
  private int round;
  private int payload; // bytes after the prefix
  private int payloadFill;
  private long[] words; // a data frame's payload so far; grows up to wordTotal words
  private int wordFill;
  private int wordTotal;
  private long partial; // the bytes so far of a word split across reads, little-endian
  private int partialBytes;
  private byte[] small; // a hello's payload, or the part of an abort's reason that is kept

  /** {@code maxFrameBytes} bounds the length field: the bytes after it. */
  public FrameDecoder(int maxFrameBytes) {
    if (maxFrameBytes < WireFormat.HEADER_BYTES + 8) {
      throw new IllegalArgumentException(
          "max frame bytes (" + maxFrameBytes + ") must be >= " + (WireFormat.HEADER_BYTES + 8));
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
    boolean hadLength = prefixFill >= WireFormat.LENGTH_BYTES;
    int n = Math.min(PREFIX - prefixFill, in.readableBytes());
    in.readBytes(prefix, prefixFill, n);
    prefixFill += n;
    if (!hadLength && prefixFill >= WireFormat.LENGTH_BYTES) {
      int length = intAt(0);
      String error =
          !helloSeen && WireFormat.startsWithTls(prefix[0], prefix[1])
              ? WireFormat.SPEAKS_TLS
              : WireFormat.lengthError(length, maxFrameBytes, helloSeen);
      if (error != null) {
        fail(ctx, error);
        return;
      }
      payload = length - WireFormat.HEADER_BYTES;
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
    String error = WireFormat.headerError(channel, round, payload, nextRound);
    if (error != null) {
      return error;
    }
    if (channel == WireFormat.DATA) {
      wordTotal = payload / 8;
      words = new long[WireFormat.initialWords(wordTotal)];
    } else if (channel != WireFormat.HEARTBEAT) {
      small = new byte[Math.min(payload, WireFormat.MAX_REASON_BYTES)];
    }
    return null;
  }

  private void readPayload(ChannelHandlerContext ctx, ByteBuf in) {
    int n = Math.min(payload - payloadFill, in.readableBytes());
    payloadFill += n;
    if (words == null) {
      int start = payloadFill - n; // bytes past the kept part of a long reason are skipped
      int kept = Math.max(0, Math.min(n, small.length - start));
      in.readBytes(small, Math.min(start, small.length), kept);
      in.skipBytes(n - kept);
    } else {
      for (; partialBytes > 0 && n > 0; n--) {
        pushByte(in.readByte());
      }
      int whole = n / 8;
      if (whole > 0) {
        if (wordFill + whole > words.length) {
          grow(wordFill + whole);
        }
        // one bulk copy from the incoming buffer's memory into the words (no swap on x86, ARM)
        WireFormat.getWords(in.nioBuffer(in.readerIndex(), 8 * whole), words, wordFill, whole);
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
    partial |= (b & 0xffL) << (8 * partialBytes); // words are little-endian: the low byte first
    if (++partialBytes == 8) {
      if (wordFill == words.length) {
        grow(wordFill + 1);
      }
      words[wordFill++] = partial;
      partial = 0;
      partialBytes = 0;
    }
  }

  /** Makes room for {@code needed} words of a large frame, with the words that have arrived. */
  private void grow(int needed) {
    words = Arrays.copyOf(words, WireFormat.grownWords(needed, wordTotal));
  }

  /** The frame is complete: hands it on and gets ready for the next one. */
  private void finish(ChannelHandlerContext ctx) {
    InboundFrame frame = null;
    switch (channel) {
      case WireFormat.DATA -> {
        nextRound = round + 1;
        frame = new InboundFrame.Data(round, words, PREFIX + payload);
      }
      case WireFormat.HELLO -> {
        if (longAt(small) != WireFormat.MAGIC) {
          fail(ctx, WireFormat.NOT_A_HELLO);
          return;
        }
        helloSeen = true;
        frame = new InboundFrame.Hello(round);
      }
      case WireFormat.ABORT ->
          frame = new InboundFrame.Abort(round, WireFormat.reason(small, small.length, payload));
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

  /** A header field of the prefix: big-endian. */
  private int intAt(int at) {
    return (prefix[at] & 0xff) << 24
        | (prefix[at + 1] & 0xff) << 16
        | (prefix[at + 2] & 0xff) << 8
        | (prefix[at + 3] & 0xff);
  }

  /** A hello's magic word: big-endian, unlike a data frame's words. */
  private static long longAt(byte[] b) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[i] & 0xff);
    }
    return v;
  }
}
