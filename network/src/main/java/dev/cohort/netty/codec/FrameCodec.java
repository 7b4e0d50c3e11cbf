package dev.cohort.netty.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The wire format of the Netty transport and its encoders. Every frame is
 *
 * <pre>
 *  +--------------+---------------+-------------+---------------------------+
 *  | length (int) | channel (int) | round (int) | payload                   |
 *  +--------------+---------------+-------------+---------------------------+
 * </pre>
 *
 * where {@code length} counts the bytes after itself (channel, round and payload), all integers
 * big-endian. Channel {@link #DATA} carries one round's 64-bit words and {@code round} numbers the
 * rounds from 0 without gaps; {@link #HELLO} opens every connection with the sender's party id in
 * the round field and the {@link #MAGIC} word as payload; {@link #ABORT} carries the round the
 * sender gave up in and a UTF-8 reason; {@link #HEARTBEAT} has no payload (round 0) and only says
 * that the sender is alive.
 *
 * <p>Encoders copy the caller's words into a fresh buffer at once, so the caller may reuse its
 * arrays as soon as the call returns.
 */
public final class FrameCodec {

  /** Bytes of the length field. */
  public static final int LENGTH_BYTES = 4;

  /** Bytes of channel and round, counted by the length field. */
  public static final int HEADER_BYTES = 8;

  public static final int DATA = 0;
  public static final int HELLO = -1;
  public static final int ABORT = -2;
  public static final int HEARTBEAT = -3;

  /** "COHORT01": the protocol name and version, as the payload of a hello. */
  public static final long MAGIC = 0x434F484F52543031L;

  /** Longest abort reason sent, in characters. */
  static final int MAX_REASON_CHARS = 512;

  private FrameCodec() {}

  /** The bytes a data frame of {@code words} words takes on the wire. */
  public static long dataFrameBytes(int words) {
    return LENGTH_BYTES + HEADER_BYTES + 8L * words;
  }

  public static ByteBuf data(ByteBufAllocator alloc, int round, long[] words, int length) {
    int payload = 8 * length;
    ByteBuf buf = alloc.buffer((int) dataFrameBytes(length));
    buf.writeInt(HEADER_BYTES + payload).writeInt(DATA).writeInt(round);
    // One bulk copy (a view on the buffer's memory) rather than a call per word.
    buf.nioBuffer(buf.writerIndex(), payload)
        .order(ByteOrder.BIG_ENDIAN)
        .asLongBuffer()
        .put(words, 0, length);
    return buf.writerIndex(buf.writerIndex() + payload);
  }

  public static ByteBuf hello(ByteBufAllocator alloc, int party) {
    ByteBuf buf = alloc.buffer(LENGTH_BYTES + HEADER_BYTES + 8);
    return buf.writeInt(HEADER_BYTES + 8).writeInt(HELLO).writeInt(party).writeLong(MAGIC);
  }

  public static ByteBuf heartbeat(ByteBufAllocator alloc) {
    return alloc
        .buffer(LENGTH_BYTES + HEADER_BYTES)
        .writeInt(HEADER_BYTES)
        .writeInt(HEARTBEAT)
        .writeInt(0);
  }

  public static ByteBuf abort(ByteBufAllocator alloc, int round, String reason) {
    String text =
        reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) : reason;
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    ByteBuf buf = alloc.buffer(LENGTH_BYTES + HEADER_BYTES + bytes.length);
    return buf.writeInt(HEADER_BYTES + bytes.length)
        .writeInt(ABORT)
        .writeInt(round)
        .writeBytes(bytes);
  }
}
