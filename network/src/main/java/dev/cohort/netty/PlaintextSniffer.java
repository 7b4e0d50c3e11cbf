package dev.cohort.netty;

import dev.cohort.transport.ProtocolMismatch;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * The first handler of a TLS connection, in front of the {@code SslHandler}: it looks at the first
 * bytes the peer sends and recognises a peer that speaks plain TCP ({@link ProtocolMismatch}). At
 * the first byte of a TLS record it removes itself and hands on what it holds, so it costs nothing
 * once the connection is under way. When the first {@link ProtocolMismatch#PEEK_BYTES} bytes are a
 * plaintext Cohort hello or abort, it fires a {@link PlaintextPeer} event (the {@link PeerHandler}
 * words the failure), answers an accepted connection with a TLS alert so that the plaintext dialer
 * learns why, and closes the connection. Anything else goes on to the {@code SslHandler}, which
 * refuses it as before. It holds at most the {@link ProtocolMismatch#PEEK_BYTES} bytes it waits
 * for, plus what one read brought.
 */
final class PlaintextSniffer extends ByteToMessageDecoder {

  /**
   * The connection opened with a plaintext Cohort frame; {@code claimed} is the party its hello
   * claims (unauthenticated), -1 when it was an abort.
   */
  record PlaintextPeer(int claimed) {}

  private final boolean accepted;

  PlaintextSniffer(boolean accepted) {
    this.accepted = accepted;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (!in.isReadable()) {
      return;
    }
    if (ProtocolMismatch.isTlsContentType(in.getByte(in.readerIndex()))) {
      ctx.pipeline().remove(this); // what it holds goes on to the TLS handler
      return;
    }
    if (in.readableBytes() < ProtocolMismatch.PEEK_BYTES) {
      return;
    }
    byte[] head = new byte[ProtocolMismatch.PEEK_BYTES];
    in.getBytes(in.readerIndex(), head);
    if (!ProtocolMismatch.isPlaintextFrame(head, head.length)) {
      ctx.pipeline().remove(this); // not TLS, but not Cohort either: the TLS handler refuses it
      return;
    }
    in.skipBytes(in.readableBytes());
    ctx.fireUserEventTriggered(new PlaintextPeer(ProtocolMismatch.claimedParty(head, head.length)));
    if (accepted) {
      ctx.writeAndFlush(Unpooled.wrappedBuffer(ProtocolMismatch.tlsAlert()))
          .addListener(ChannelFutureListener.CLOSE);
    } else {
      ctx.close();
    }
  }
}
