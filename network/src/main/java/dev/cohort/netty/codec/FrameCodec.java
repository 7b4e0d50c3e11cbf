package dev.cohort.netty.codec;

import dev.cohort.transport.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.ByteOrder;

/**
 * Writes the frames of {@link WireFormat} into {@code ByteBuf}s, for the Netty transport. Each
 * encoder copies the caller's words into a fresh buffer at once, so the caller may reuse its arrays
 * as soon as the call returns.
 */
public final class FrameCodec {

  private FrameCodec() {}

  public static ByteBuf data(ByteBufAllocator alloc, int round, long[] words, int length) {
    int payload = 8 * length;
    ByteBuf buf = alloc.buffer((int) WireFormat.dataFrameBytes(length));
    buf.writeInt(WireFormat.HEADER_BYTES + payload).writeInt(WireFormat.DATA).writeInt(round);
    // One bulk copy (a view on the buffer's memory) rather than a call per word.
    buf.nioBuffer(buf.writerIndex(), payload)
        .order(ByteOrder.BIG_ENDIAN)
        .asLongBuffer()
        .put(words, 0, length);
    return buf.writerIndex(buf.writerIndex() + payload);
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
