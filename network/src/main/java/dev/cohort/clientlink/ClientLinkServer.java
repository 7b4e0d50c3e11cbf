package dev.cohort.clientlink;

import dev.cohort.transport.Failures;
import dev.cohort.transport.NettyIo;
import dev.cohort.transport.RefusalLog;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.SessionTickets;
import dev.cohort.transport.tls.TlsIdentity;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party's end of the client link: it listens on its own address, separate from the mesh, and
 * serves input clients over TLS 1.3 ({@link TlsIdentity#clientLinkServerContext}: a client proves
 * an input client's certificate of the deployment's CA; a party's certificate is refused). The
 * client's id is its certificate's ({@code cohort-client-J}), never a field of a message.
 * Invariant: at most one connection per client id is admitted at a time; a second is refused with
 * its reason and closed, and the first one keeps its slot.
 *
 * <p>Connections are served by a small event-loop group, never by a thread per client; {@link
 * Handler} calls come on its threads, one connection's always on the same thread and in order, and
 * must not block. Refused connections (TLS failures, a second connection, a frame over the limit)
 * are logged through a {@link RefusalLog}, so a flood of them cannot flood the log.
 */
public final class ClientLinkServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(ClientLinkServer.class);

  /**
   * What a server does with its clients. Called on event-loop threads: a call must not block, and
   * the calls for one client come in order ({@code connected}, {@code message}s, {@code
   * disconnected}).
   */
  public interface Handler {

    /** Client {@code client} proved its certificate and was admitted. */
    void connected(int client);

    /** Client {@code client} sent {@code payload}; the array is the handler's. */
    void message(int client, byte[] payload);

    /**
     * Client {@code client}'s connection ended: {@code causeOrNull} is null when it closed, else
     * why it was closed (a frame over the limit, an I/O error, a handler that threw).
     */
    void disconnected(int client, Throwable causeOrNull);
  }

  private final String name; // "client link of P0", for threads and logs
  private final ClientLinkOptions options;
  private final Handler handler;
  private final SslContext tls;
  private final EventLoopGroup group;
  private final ConcurrentHashMap<Integer, Channel> clients = new ConcurrentHashMap<>();
  private final RefusalLog refusals = new RefusalLog(log);
  private final LongAdder bytesReceived = new LongAdder();
  private final LongAdder bytesSent = new LongAdder();
  private volatile Channel server; // set once listening; handlers may broadcast from then on

  private ClientLinkServer(TlsIdentity identity, ClientLinkOptions options, Handler handler) {
    if (identity.party() < 0) {
      throw new IllegalArgumentException(
          "a client link server proves a party's certificate, not CN="
              + Certificates.commonNameOf(identity.certificate()));
    }
    this.name = "client link of P" + identity.party();
    this.options = options;
    this.handler = handler;
    this.tls = identity.clientLinkServerContext();
    this.group = NettyIo.newGroup(options.eventLoopThreads(), daemonThreads(name));
  }

  /**
   * Starts serving clients on {@code bind} (port 0 picks a free port: {@link #localAddress}) with
   * {@code identity}, a party's TLS material. Throws an {@link java.io.UncheckedIOException} naming
   * the address when it cannot listen there.
   */
  public static ClientLinkServer start(
      InetSocketAddress bind, TlsIdentity identity, ClientLinkOptions options, Handler handler) {
    ClientLinkServer link = new ClientLinkServer(identity, options, handler);
    try {
      link.server =
          new ServerBootstrap()
              .group(link.group)
              .channel(NettyIo.serverChannel(link.group))
              .option(ChannelOption.SO_BACKLOG, options.backlog())
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childOption(
                  ChannelOption.WRITE_BUFFER_WATER_MARK,
                  new WriteBufferWaterMark(
                      PENDING_LOW_BYTES, pendingBound(options.maxFrameBytes())))
              .childHandler(link.new Initializer())
              .bind(bind)
              .syncUninterruptibly()
              .channel();
    } catch (Exception e) { // Netty rethrows the BindException unchecked, undeclared
      link.close();
      throw Failures.cannotListen(identity.party(), bind, e);
    }
    log.info(
        "{} listening on {} (TLS 1.3 by {})",
        link.name,
        link.localAddress(),
        identity.provider().implementation());
    return link;
  }

  /** Below this many bytes waiting for a client, its connection counts as writable again. */
  static final int PENDING_LOW_BYTES = 32 * 1024;

  /**
   * The most bytes that may wait in this process to be sent to one client (beyond what the kernel
   * buffers) before the server closes its connection: two of the largest frames and 64 KiB. A
   * client that sends and never reads (each malformed or duplicate message earns it a reply) would
   * otherwise make the server buffer replies without end.
   */
  static int pendingBound(int maxFrameBytes) {
    return (int)
        Math.min(Integer.MAX_VALUE, 2L * (LinkFrames.LENGTH_BYTES + maxFrameBytes) + 65536);
  }

  /** The address this server listens on. */
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) server.localAddress();
  }

  /** The clients connected now. */
  public int connectedClients() {
    return clients.size();
  }

  /** Frame bytes (length prefixes included) received from clients since the start. */
  public long bytesReceived() {
    return bytesReceived.sum();
  }

  /** Frame bytes (length prefixes included) sent to clients since the start. */
  public long bytesSent() {
    return bytesSent.sum();
  }

  /**
   * Sends {@code payload} to client {@code client}; returns false, sending nothing, when that
   * client is not connected (it may have left a moment ago). The payload is copied at once.
   */
  public boolean send(int client, byte[] payload) {
    Channel channel = clients.get(client);
    if (channel == null) {
      return false;
    }
    ByteBuf frame = LinkFrames.encode(channel.alloc(), payload, options.maxFrameBytes());
    bytesSent.add(frame.readableBytes());
    channel.writeAndFlush(frame, channel.voidPromise());
    return true;
  }

  /**
   * Sends {@code payload} to every client connected now and returns how many that is. The frame is
   * encoded once and shared by all the connections.
   */
  public int broadcast(byte[] payload) {
    return broadcast(payload, client -> true);
  }

  /**
   * Sends {@code payload} to every client connected now whose id {@code to} accepts, and returns
   * how many that is. The frame is encoded once and shared by all the connections.
   */
  public int broadcast(byte[] payload, IntPredicate to) {
    ByteBuf frame =
        LinkFrames.encode(server.alloc(), payload, options.maxFrameBytes()); // released below
    int sent = 0;
    try {
      for (Map.Entry<Integer, Channel> e : clients.entrySet()) {
        if (!to.test(e.getKey())) {
          continue;
        }
        Channel channel = e.getValue();
        channel.writeAndFlush(frame.retainedDuplicate(), channel.voidPromise());
        sent++;
      }
    } finally {
      frame.release();
    }
    bytesSent.add((long) sent * (LinkFrames.LENGTH_BYTES + payload.length));
    return sent;
  }

  /** Stops listening, closes every client's connection and stops the event loops. */
  @Override
  public void close() {
    List<ChannelFuture> closing = new ArrayList<>();
    if (server != null) {
      closing.add(server.close());
    }
    for (Channel channel : clients.values()) {
      closing.add(channel.close());
    }
    boolean mayWait = !group.next().inEventLoop(); // waiting on the loop itself would deadlock
    for (ChannelFuture f : closing) {
      if (mayWait) {
        f.awaitUninterruptibly(2, TimeUnit.SECONDS);
      }
    }
    refusals.flush();
    var stopped = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    if (mayWait) {
      stopped.awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }

  /** Takes client {@code client}'s slot for {@code channel}; false when it is connected already. */
  boolean admit(int client, Channel channel) {
    return clients.putIfAbsent(client, channel) == null;
  }

  /** Frees client {@code client}'s slot, if {@code channel} holds it. */
  void leave(int client, Channel channel) {
    clients.remove(client, channel);
  }

  void received(int bytes) {
    bytesReceived.add(bytes);
  }

  void refused(SocketAddress from, String reason) {
    refusals.refused(from, reason);
  }

  /** TLS sessions this server's context holds for resumption (a test's view of the cache). */
  int cachedTlsSessions() {
    return java.util.Collections.list(tls.sessionContext().getIds()).size();
  }

  Handler handler() {
    return handler;
  }

  ClientLinkOptions options() {
    return options;
  }

  static ThreadFactory daemonThreads(String name) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "cohort-" + name.replace(' ', '-') + "-" + count.getAndIncrement());
      t.setDaemon(true);
      return t;
    };
  }

  /** TLS (issuing no session tickets), the frame decoder, then the connection's handler. */
  private final class Initializer extends ChannelInitializer<SocketChannel> {
    @Override
    protected void initChannel(SocketChannel channel) {
      SslHandler ssl = tls.newHandler(channel.alloc());
      ssl.setHandshakeTimeoutMillis(options.handshakeTimeout().toMillis());
      SessionTickets.refuse(ssl.engine());
      channel
          .pipeline()
          .addLast(
              ssl,
              new LinkFrameDecoder(options.maxFrameBytes()),
              new ClientConnection(ClientLinkServer.this));
    }
  }
}
