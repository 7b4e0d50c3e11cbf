package dev.cohort.netty;

import dev.cohort.netty.codec.FrameCodec;
import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.ProtocolMismatch;
import dev.cohort.transport.WireFormat;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of one connection, on the event loop. A dialer sends this party's hello once the
 * connection is secure (at once in plaintext, after the TLS handshake otherwise), a listener once
 * it has verified the dialer's; it has the network verify the peer's hello, sends heartbeats when
 * the connection is idle and fails the peer when it goes silent, and from then on hands every
 * frame, abort and failure to the peer's {@link PeerLink}. Until the hello is verified the
 * connection belongs to no peer: anything else closes it, and a dialed connection that ends is
 * dialed again. A peer that speaks the other protocol (a {@link PlaintextSniffer.PlaintextPeer}
 * event under TLS, {@link WireFormat#SPEAKS_TLS} in plaintext) ends connecting on a dialed
 * connection and is refused with an answer in its own protocol on an accepted one.
 */
final class PeerHandler extends ChannelInboundHandlerAdapter {

  private static final Logger log = LoggerFactory.getLogger(PeerHandler.class);

  private final NettyNetwork network;
  private final NettyNetwork.Dialer dialer; // null on accepted connections
  private PeerLink link;
  private boolean mismatched; // the peer speaks the other protocol: already reported

  PeerHandler(NettyNetwork network, NettyNetwork.Dialer dialer) {
    this.network = network;
    this.dialer = dialer;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (dialer != null && ctx.pipeline().get(SslHandler.class) == null) {
      sendHello(ctx);
    }
    // A connection that never says who it is must not hold a socket (or a dial) forever.
    ctx.executor()
        .schedule(
            () -> {
              if (link == null && ctx.channel().isActive()) {
                String reason = Failures.handshakeTimeout(network.handshakeTimeoutMillis());
                if (dialer != null) {
                  dialer.lastError(reason);
                } else {
                  network.refused(ctx.channel().remoteAddress(), reason);
                }
                ctx.close();
              }
            },
            network.handshakeTimeoutMillis(),
            TimeUnit.MILLISECONDS);
    super.channelActive(ctx);
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof PlaintextSniffer.PlaintextPeer plaintext) {
      mismatched = true; // the TLS handshake fails next, as the sniffer closes: nothing more to say
      if (dialer != null) {
        dialer.mismatch(ProtocolMismatch.peerSpeaksPlaintext(dialer.link.name()));
      } else {
        network.mismatchFrom(
            ctx.channel().remoteAddress(), plaintext.claimed(), ProtocolMismatch.speaksPlaintext());
      }
    } else if (event instanceof SslHandshakeCompletionEvent handshake && !mismatched) {
      if (handshake.isSuccess()) {
        if (dialer != null) {
          sendHello(ctx); // a listener answers only once the dialer's hello is verified
        }
      } else {
        String reason = "TLS handshake failed: " + Failures.describe(handshake.cause());
        if (dialer != null && handshake.cause() instanceof SSLHandshakeException) {
          dialer.refused(reason); // a certificate problem: dialing again cannot help
        } else if (dialer != null) {
          dialer.lastError(reason);
        } else {
          network.refused(ctx.channel().remoteAddress(), reason);
        }
        ctx.close();
      }
    }
    if (event instanceof IdleStateEvent idle && link != null) {
      if (idle.state() == IdleState.WRITER_IDLE) {
        ctx.writeAndFlush(FrameCodec.heartbeat(ctx.alloc()));
      } else if (idle.state() == IdleState.READER_IDLE && ctx.channel().config().isAutoRead()) {
        // Not while this party has stopped reading a peer that is rounds ahead (see PeerLink):
        // then the silence is this party's, and the peer's frames are waiting for it.
        link.fail(
            "went silent: sent nothing, not even a heartbeat, for "
                + network.idleTimeoutMillis()
                + " ms; connection closed");
        ctx.close();
      }
    }
    super.userEventTriggered(ctx, event);
  }

  private void sendHello(ChannelHandlerContext ctx) {
    ctx.writeAndFlush(FrameCodec.hello(ctx.alloc(), network.myId()));
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    InboundFrame frame = (InboundFrame) msg;
    if (link == null) {
      beforeHello(ctx, frame);
    } else if (frame instanceof InboundFrame.Data data) {
      link.deliver(data);
    } else if (frame instanceof InboundFrame.Abort abort) {
      link.aborted("aborted in round " + abort.round() + ": " + abort.reason());
      ctx.close();
    } else if (frame instanceof InboundFrame.Error error) {
      link.fail("broke the frame format: " + error.reason() + "; connection closed");
      ctx.close();
    } else {
      link.fail("sent a second hello; connection closed");
      ctx.close();
    }
  }

  private void beforeHello(ChannelHandlerContext ctx, InboundFrame frame) {
    String refusal;
    if (frame instanceof InboundFrame.Hello hello) {
      X509Certificate certificate = peerCertificate(ctx);
      refusal = network.register(ctx.channel(), hello.party(), dialer, certificate);
      if (refusal == null) {
        link = network.link(hello.party());
        if (dialer == null) {
          sendHello(ctx);
        }
        return;
      }
    } else if (frame instanceof InboundFrame.Error error
        && WireFormat.SPEAKS_TLS.equals(error.reason())) {
      speaksTls(ctx);
      return;
    } else if (frame instanceof InboundFrame.Error error) {
      refusal = "broke the frame format: " + error.reason();
    } else {
      refusal = "sent a frame before its hello";
    }
    if (dialer != null) {
      dialer.refused(refusal);
    } else {
      network.refused(ctx.channel().remoteAddress(), refusal);
    }
    ctx.close();
  }

  /**
   * This party runs in plaintext and the peer opened with TLS. A dialed peer ends connecting; an
   * accepted connection gets a plaintext abort first, which a TLS dialer recognises as such.
   */
  private void speaksTls(ChannelHandlerContext ctx) {
    if (dialer != null) {
      dialer.mismatch(ProtocolMismatch.peerSpeaksTls(dialer.link.name()));
      ctx.close();
    } else {
      network.mismatchFrom(ctx.channel().remoteAddress(), -1, ProtocolMismatch.speaksTls());
      ctx.writeAndFlush(FrameCodec.abort(ctx.alloc(), 0, ProtocolMismatch.PLAINTEXT_ANSWER))
          .addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static X509Certificate peerCertificate(ChannelHandlerContext ctx) {
    SslHandler ssl = ctx.pipeline().get(SslHandler.class);
    if (ssl == null) {
      return null;
    }
    try {
      Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
      return (X509Certificate) chain[0];
    } catch (SSLPeerUnverifiedException e) {
      throw new IllegalStateException("TLS session without a peer certificate", e);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (link != null) {
      link.closed();
    } else if (dialer != null) {
      dialer.retry();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    String reason = Failures.describe(cause);
    if (link != null) {
      link.fail("failed: " + reason + "; connection closed");
    } else if (dialer != null) {
      dialer.lastError(reason);
    } else {
      log.debug(
          "connection from {} failed before its hello: {}", ctx.channel().remoteAddress(), reason);
    }
    ctx.close();
  }
}
