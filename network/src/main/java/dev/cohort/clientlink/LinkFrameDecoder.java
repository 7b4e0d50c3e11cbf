package dev.cohort.clientlink;

import dev.cohort.transport.WireFormat;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Turns one client link connection's bytes into payloads ({@code byte[]}, format in {@link
 * LinkFrames}); the buffers never leave this class. Invariant: no payload longer than the limit
 * comes out, and what it holds grows only with the bytes that have arrived (a frame waits in the
 * cumulation buffer until it is whole, never in an array of the length it declares).
 *
 * <p>A length over the limit is refused as soon as its four bytes arrive: the decoder emits one
 * {@link Oversize} with the reason ({@link WireFormat#overLimit}, the wording of the mesh), drops
 * everything after it, and the handler behind it closes the connection naming the peer.
 */
final class LinkFrameDecoder extends ByteToMessageDecoder {

  /** The peer declared a frame over the limit; the connection is to be closed. */
  record Oversize(String reason) {}

  private final int maxFrameBytes;
  private boolean failed;

  LinkFrameDecoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (!failed && in.readableBytes() >= LinkFrames.LENGTH_BYTES) {
      long length = in.getUnsignedInt(in.readerIndex());
      String over = WireFormat.overLimit(length, maxFrameBytes);
      if (over != null) {
        failed = true;
        out.add(new Oversize(over));
      } else if (in.readableBytes() - LinkFrames.LENGTH_BYTES < length) {
        return; // the rest of the frame has not arrived
      } else {
        byte[] payload = new byte[(int) length];
        in.skipBytes(LinkFrames.LENGTH_BYTES).readBytes(payload);
        out.add(payload);
      }
    }
    if (failed) {
      in.skipBytes(in.readableBytes());
    }
  }
}
