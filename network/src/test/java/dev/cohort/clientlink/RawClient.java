package dev.cohort.clientlink;

import dev.cohort.transport.tls.Certificates;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TLS connection to server 0 made with any context, outside {@link ClientLink}: it sends nothing
 * and counts the bytes it gets, so a test sees what a rogue learns.
 */
final class RawClient implements AutoCloseable {

  private final Channel channel;
  private final AtomicLong bytesRead = new AtomicLong();

  private RawClient(EventLoopGroup group, SslContext tls, InetSocketAddress server, boolean reads) {
    channel =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .option(ChannelOption.AUTO_READ, reads) // TLS still reads what its handshake needs
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            tls.newHandler(
                                ch.alloc(), Certificates.commonName(0), server.getPort()),
                            new Counter());
                  }
                })
            .connect(server)
            .syncUninterruptibly()
            .channel();
  }

  static RawClient connect(EventLoopGroup group, SslContext tls, List<InetSocketAddress> servers) {
    return new RawClient(group, tls, servers.get(0), true);
  }

  /**
   * A client that, once its handshake is done, never reads what server 0 sends: what arrives stays
   * in the kernel's buffers and then in the server's.
   */
  static RawClient connectNotReading(
      EventLoopGroup group, SslContext tls, List<InetSocketAddress> servers) {
    RawClient c = new RawClient(group, tls, servers.get(0), false);
    c.channel.pipeline().get(SslHandler.class).handshakeFuture().syncUninterruptibly();
    return c;
  }

  /** Sends {@code payload} as one link frame; true when it was written. */
  boolean send(byte[] payload) {
    return channel
        .writeAndFlush(LinkFrames.encode(channel.alloc(), payload, payload.length))
        .awaitUninterruptibly()
        .isSuccess();
  }

  boolean awaitClosed(Duration timeout) throws InterruptedException {
    return channel.closeFuture().await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  long bytesRead() {
    return bytesRead.get();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
  }

  private final class Counter extends ChannelInboundHandlerAdapter {
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      bytesRead.addAndGet(((ByteBuf) msg).readableBytes());
      ReferenceCountUtil.release(msg);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close(); // the refusal, as the rogue sees it
    }
  }
}
