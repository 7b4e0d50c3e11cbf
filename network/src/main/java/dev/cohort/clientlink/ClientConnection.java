package dev.cohort.clientlink;

import dev.cohort.api.NetworkException;
import dev.cohort.transport.Failures;
import dev.cohort.transport.tls.Certificates;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;

/**
 * The server's handler of one client's connection, on its event loop: once TLS is up it takes the
 * slot of the client its certificate names and sends the admission (or the refusal, and closes),
 * then hands every payload to the server's {@link ClientLinkServer.Handler}. Until it is admitted a
 * connection belongs to no client and nothing it sends is delivered.
 */
final class ClientConnection extends ChannelInboundHandlerAdapter {

  private final ClientLinkServer server;
  private int client = -1; // set once admitted
  private Throwable cause; // why the connection was closed, when it was not the client's doing

  ClientConnection(ClientLinkServer server) {
    this.server = server;
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof SslHandshakeCompletionEvent handshake) {
      if (handshake.isSuccess()) {
        admit(ctx);
      } else {
        String reason = "TLS handshake failed: " + Failures.describe(handshake.cause());
        server.refused(ctx.channel().remoteAddress(), reason);
        ctx.close();
      }
    }
    super.userEventTriggered(ctx, event);
  }

  private void admit(ChannelHandlerContext ctx) throws SSLPeerUnverifiedException {
    SslHandler ssl = ctx.pipeline().get(SslHandler.class);
    X509Certificate certificate =
        (X509Certificate) ssl.engine().getSession().getPeerCertificates()[0];
    int claimed = Certificates.clientOf(certificate); // the TLS context admitted clients only
    String refusal =
        claimed < 0
            ? "CN=" + Certificates.commonNameOf(certificate) + " is not an input client's"
            : !server.admit(claimed, ctx.channel())
                ? "client " + claimed + " is connected already"
                : null;
    if (refusal != null) {
      server.refused(ctx.channel().remoteAddress(), refusal);
      ctx.writeAndFlush(LinkFrames.refused(ctx.alloc(), refusal))
          .addListener(ChannelFutureListener.CLOSE);
      return;
    }
    client = claimed;
    ctx.writeAndFlush(LinkFrames.admitted(ctx.alloc()), ctx.voidPromise());
    server.handler().connected(client);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (client < 0) {
      return; // not admitted (refused, closing): nothing of it is delivered
    }
    if (msg instanceof byte[] payload) {
      server.received(LinkFrames.LENGTH_BYTES + payload.length);
      server.handler().message(client, payload);
    } else if (msg instanceof LinkFrameDecoder.Oversize oversize) {
      String reason = "client " + client + ": " + oversize.reason() + "; connection closed";
      server.refused(ctx.channel().remoteAddress(), reason);
      cause = new NetworkException(reason);
      ctx.close();
    }
  }

  /**
   * More than {@link ClientLinkServer#pendingBound} bytes wait to be sent to this client: it does
   * not read what the server sends (or cannot keep up), so the server closes its connection rather
   * than buffer without bound.
   */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (!ctx.channel().isWritable() && client >= 0 && cause == null) {
      String reason =
          "client "
              + client
              + " does not read what the server sends (over "
              + ClientLinkServer.pendingBound(server.options().maxFrameBytes())
              + " bytes wait for it); connection closed";
      server.refused(ctx.channel().remoteAddress(), reason);
      cause = new NetworkException(reason);
      ctx.close();
    }
    super.channelWritabilityChanged(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable thrown) {
    if (cause == null) {
      cause = thrown;
    }
    ctx.close();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (client >= 0) {
      server.leave(client, ctx.channel());
      server.handler().disconnected(client, cause);
    }
    super.channelInactive(ctx);
  }
}
