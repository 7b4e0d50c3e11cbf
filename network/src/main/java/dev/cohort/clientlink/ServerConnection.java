package dev.cohort.clientlink;

import dev.cohort.api.NetworkException;
import dev.cohort.transport.Failures;
import dev.cohort.transport.tls.Certificates;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A client's connection to one server, and the handler at the end of its pipeline: it completes
 * {@link #admitted} when the server's admission arrives (or fails it naming the server), then
 * queues every frame for {@link #receive}. The TLS handler is made with the CN server i must prove
 * as its peer host ({@link dev.cohort.transport.tls.TlsIdentity#clientLinkClientContext}).
 * Invariant: nothing is queued before the admission, and once the connection has closed the queue
 * ends with {@link #CLOSED}, which stays at its end.
 */
final class ServerConnection extends ChannelInboundHandlerAdapter {

  /** The end of the queue: the connection has closed (compared by identity). */
  private static final byte[] CLOSED = new byte[0];

  final CompletableFuture<Void> admitted = new CompletableFuture<>();
  private final int index;
  private final InetSocketAddress address;
  private final int client;
  private final SslContext tls;
  private final ClientLinkOptions options;
  private final BlockingQueue<byte[]> inbox = new LinkedBlockingQueue<>();
  private volatile Channel channel;
  private volatile boolean closing; // closed by this client
  private volatile String closedReason; // written before CLOSED is queued
  private Throwable cause; // on the event loop
  private ScheduledFuture<?> admissionTimer;

  ServerConnection(
      int index, InetSocketAddress address, int client, SslContext tls, ClientLinkOptions options) {
    this.index = index;
    this.address = address;
    this.client = client;
    this.tls = tls;
    this.options = options;
  }

  /** "server 1 (127.0.0.1:7001)". */
  private String name() {
    return "server " + index + " (" + address.getHostString() + ":" + address.getPort() + ")";
  }

  /** Dials the server; the returned future completes once it has admitted this client. */
  CompletableFuture<Void> dial(Bootstrap bootstrap) {
    ChannelFuture connecting = bootstrap.clone().handler(new Initializer()).connect(address);
    channel = connecting.channel();
    connecting.addListener(
        f -> {
          if (!f.isSuccess()) {
            fail("could not connect: " + Failures.describe(f.cause()));
          }
        });
    return admitted;
  }

  /** Fails {@link #admitted}; false when it had completed already. */
  private boolean fail(String reason) {
    return admitted.completeExceptionally(
        new NetworkException(
            "client " + client + " could not connect to " + name() + ": " + reason));
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) throws Exception {
    if (event instanceof SslHandshakeCompletionEvent handshake && !handshake.isSuccess()) {
      fail("TLS handshake failed: " + Failures.describe(handshake.cause()));
      ctx.close();
    }
    super.userEventTriggered(ctx, event);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof byte[] payload) {
      if (admitted.isDone()) {
        inbox.add(payload);
      } else if (payload.length == 0) {
        admissionTimer.cancel(false);
        admitted.complete(null);
      } else {
        fail("refused: " + LinkFrames.reason(payload));
        ctx.close();
      }
    } else if (msg instanceof LinkFrameDecoder.Oversize oversize) {
      closedReason = name() + ": " + oversize.reason() + "; connection closed";
      fail(oversize.reason());
      ctx.close();
    }
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
    admissionTimer.cancel(false);
    String why = cause == null ? "" : ": " + Failures.describe(cause);
    if (!admitted.isDone()) {
      fail("the connection closed before the server admitted the client" + why);
    }
    if (closedReason == null) {
      closedReason =
          closing
              ? "the connection to " + name() + " was closed by this client"
              : name() + " closed the connection" + why;
    }
    inbox.add(CLOSED);
    super.channelInactive(ctx);
  }

  void send(byte[] payload, int maxFrameBytes) {
    Channel c = channel;
    if (!c.isActive()) {
      throw new NetworkException(
          closedReason != null ? closedReason : name() + " is not connected");
    }
    c.writeAndFlush(LinkFrames.encode(c.alloc(), payload, maxFrameBytes), c.voidPromise());
  }

  byte[] receive(Duration timeout) {
    byte[] frame;
    try {
      frame = inbox.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NetworkException("interrupted while waiting for " + name(), e);
    }
    if (frame == null) {
      throw new NetworkException(name() + " sent nothing within " + timeout.toMillis() + " ms");
    }
    if (frame == CLOSED) {
      inbox.add(CLOSED); // every later receive fails the same way
      throw new NetworkException(closedReason);
    }
    return frame;
  }

  /** The next frame if one has arrived, else null; a closed connection fails as in receive. */
  byte[] poll() {
    byte[] frame = inbox.poll();
    if (frame == CLOSED) {
      inbox.add(CLOSED);
      throw new NetworkException(closedReason);
    }
    return frame;
  }

  ChannelFuture close() {
    closing = true;
    return channel.close();
  }

  /**
   * TLS (expecting party {@code index}'s certificate), the frame decoder, then this handler; and
   * the timer that gives up on a server that has not admitted the client in time.
   */
  private final class Initializer extends ChannelInitializer<SocketChannel> {
    @Override
    protected void initChannel(SocketChannel ch) {
      long timeout = options.handshakeTimeout().toMillis();
      admissionTimer =
          ch.eventLoop()
              .schedule(
                  () -> {
                    if (fail("not admitted within the handshake timeout of " + timeout + " ms")) {
                      ch.close();
                    }
                  },
                  timeout,
                  TimeUnit.MILLISECONDS);
      SslHandler ssl =
          tls.newHandler(ch.alloc(), Certificates.commonName(index), address.getPort());
      ssl.setHandshakeTimeoutMillis(timeout);
      ch.pipeline()
          .addLast(ssl, new LinkFrameDecoder(options.maxFrameBytes()), ServerConnection.this);
    }
  }
}
