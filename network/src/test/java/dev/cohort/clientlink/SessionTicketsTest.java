package dev.cohort.clientlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cohort.netty.LeakCheck;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import dev.cohort.transport.tls.TlsProvider;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslSessionContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client link resumes no TLS session, so it pays for none: a server (BoringSSL) sends no
 * session ticket, seen by a client that would store one, and a client context keeps no session. The
 * control: the same client does store a ticket of a plain TLS 1.3 server with Netty's defaults.
 */
@ExtendWith(LeakCheck.class)
class SessionTicketsTest {

  @TempDir static Path keys;
  private static EventLoopGroup group;

  @BeforeAll
  static void start() {
    assumeTrue(OpenSsl.isAvailable(), "BoringSSL does not load here");
    Certificates.generate(keys, 1);
    Certificates.generateClients(keys, 1);
    group = new NioEventLoopGroup(1);
  }

  @AfterAll
  static void stop() {
    if (group != null) {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void handshake_clientLinkServer_sendsNoSessionTicket() throws Exception {
    try (ClientLinkServer server =
        ClientLinkServer.start(
            new InetSocketAddress("127.0.0.1", 0),
            TlsIdentity.load(keys, 0),
            ClientLinkOptions.defaults(),
            new Silent())) {
      assertEquals(0, sessionsStoredAfterFirstBytes(server.localAddress()));
    }
  }

  @Test
  void handshake_plainServerWithNettyDefaults_sendsATicketTheClientStores() throws Exception {
    SslContext tls = TlsIdentity.load(keys, 0).withProvider(TlsProvider.OPENSSL).serverContext();
    Channel listening =
        new ServerBootstrap()
            .group(group)
            .channel(NioServerSocketChannel.class)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline().addLast(tls.newHandler(ch.alloc()), new HelloAfterHandshake());
                  }
                })
            .bind(new InetSocketAddress("127.0.0.1", 0))
            .syncUninterruptibly()
            .channel();
    try {
      assertTrue(sessionsStoredAfterFirstBytes((InetSocketAddress) listening.localAddress()) > 0);
    } finally {
      listening.close().syncUninterruptibly();
      ReferenceCountUtil.release(tls);
    }
  }

  @Test
  void clientLinkClientContext_keepsNoSessions() {
    SslContext tls = TlsIdentity.loadClient(keys, 0).clientLinkClientContext();
    try {
      assertFalse(((OpenSslSessionContext) tls.sessionContext()).isSessionCacheEnabled());
    } finally {
      ReferenceCountUtil.release(tls);
    }
  }

  /**
   * Connects client 0 with BoringSSL and Netty's client session cache on, waits for the server's
   * first application bytes (by then any ticket sent after the handshake has been read), and
   * returns how many sessions the client stored.
   */
  private static int sessionsStoredAfterFirstBytes(InetSocketAddress server) throws Exception {
    TlsIdentity client = TlsIdentity.loadClient(keys, 0);
    SslContext tls =
        SslContextBuilder.forClient()
            .keyManager(client.key(), client.certificate())
            .trustManager(client.ca())
            .protocols("TLSv1.3")
            .sslProvider(SslProvider.OPENSSL)
            .build();
    CompletableFuture<Void> firstBytes = new CompletableFuture<>();
    Channel channel =
        new Bootstrap()
            .group(group)
            .channel(NioSocketChannel.class)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    ch.pipeline()
                        .addLast(
                            tls.newHandler(ch.alloc(), server.getHostString(), server.getPort()),
                            new ChannelInboundHandlerAdapter() {
                              @Override
                              public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ReferenceCountUtil.release(msg);
                                firstBytes.complete(null);
                              }
                            });
                  }
                })
            .connect(server)
            .syncUninterruptibly()
            .channel();
    try {
      firstBytes.get(10, TimeUnit.SECONDS);
      return Collections.list(tls.sessionContext().getIds()).size();
    } finally {
      channel.close().syncUninterruptibly();
      ReferenceCountUtil.release(tls);
    }
  }

  /** Writes one byte once the handshake is done. */
  private static final class HelloAfterHandshake extends ChannelInboundHandlerAdapter {
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof SslHandshakeCompletionEvent done && done.isSuccess()) {
        ByteBuf hello = Unpooled.wrappedBuffer(new byte[] {1});
        ctx.writeAndFlush(hello);
      }
      ctx.fireUserEventTriggered(event);
    }
  }

  /** A server handler that does nothing. */
  private static final class Silent implements ClientLinkServer.Handler {
    @Override
    public void connected(int client) {}

    @Override
    public void message(int client, byte[] payload) {}

    @Override
    public void disconnected(int client, Throwable causeOrNull) {}
  }
}
