package dev.cohort.netty.codec;

import dev.cohort.transport.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Writes the frames of {@link WireFormat} into {@code ByteBuf}s, for the Netty transport: header
 * fields big-endian, a data frame's words little-endian. Each encoder copies the caller's words
 * into a fresh buffer at once, so the caller may reuse its arrays as soon as the call returns.
 */
public final class FrameCodec {

  private FrameCodec() {}

  /**
   * Payload bytes per buffer of a large data frame: a frame is written as pooled buffers of at most
   * this size (with the header in the first), never as one buffer larger than the allocator's
   * chunk, which the allocator would make, zero and free for every frame.
   */
  static final int PART_BYTES = 1 << 20;

  /**
   * A data frame of round {@code round} carrying {@code words[0..length)}: one buffer, or over
   * {@link #PART_BYTES} of payload a composite of pooled parts, the same bytes either way.
   */
  public static ByteBuf data(ByteBufAllocator alloc, int round, long[] words, int length) {
    long payload = 8L * length;
    if (payload <= PART_BYTES) {
      ByteBuf buf = alloc.buffer((int) WireFormat.dataFrameBytes(length));
      header(buf, round, (int) payload);
      return put(buf, words, 0, length);
    }
    int partWords = PART_BYTES / 8;
    int parts = (length + partWords - 1) / partWords;
    CompositeByteBuf frame = alloc.compositeDirectBuffer(parts);
    for (int from = 0; from < length; from += partWords) {
      int n = Math.min(partWords, length - from);
      int headerBytes = from == 0 ? WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES : 0;
      ByteBuf part = alloc.directBuffer(headerBytes + 8 * n);
      if (from == 0) {
        header(part, round, (int) payload);
      }
      frame.addComponent(true, put(part, words, from, n));
    }
    return frame;
  }

  private static void header(ByteBuf buf, int round, int payload) {
    buf.writeInt(WireFormat.HEADER_BYTES + payload).writeInt(WireFormat.DATA).writeInt(round);
  }

  /**
   * Appends {@code words[from..from + n)} in the wire's word order: one bulk copy into a view on
   * the buffer's memory, a plain memory copy on a little-endian machine.
   */
  private static ByteBuf put(ByteBuf buf, long[] words, int from, int n) {
    WireFormat.putWords(buf.nioBuffer(buf.writerIndex(), 8 * n), words, from, n);
    return buf.writerIndex(buf.writerIndex() + 8 * n);
  }

  public static ByteBuf hello(ByteBufAllocator alloc, int party) {
    ByteBuf buf = alloc.buffer(WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES + 8);
    return buf.writeInt(WireFormat.HEADER_BYTES + 8)
        .writeInt(WireFormat.HELLO)
        .writeInt(party)
        .writeLong(WireFormat.MAGIC);
  }

  public static ByteBuf heartbeat(ByteBufAllocator alloc) {
    return alloc
        .buffer(WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES)
        .writeInt(WireFormat.HEADER_BYTES)
        .writeInt(WireFormat.HEARTBEAT)
        .writeInt(0);
  }

  public static ByteBuf abort(ByteBufAllocator alloc, int round, String reason) {
    byte[] bytes = WireFormat.reasonBytes(reason);
    ByteBuf buf = alloc.buffer(WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES + bytes.length);
    return buf.writeInt(WireFormat.HEADER_BYTES + bytes.length)
        .writeInt(WireFormat.ABORT)
        .writeInt(round)
        .writeBytes(bytes);
  }
}
