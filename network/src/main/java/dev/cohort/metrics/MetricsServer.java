package dev.cohort.metrics;

import dev.cohort.transport.Failures;
import dev.cohort.transport.NettyIo;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.timeout.ReadTimeoutHandler;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint a monitoring system scrapes: {@code GET /metrics} in the Prometheus text format
 * and {@code GET /health} (see {@link MetricsHandler} for every answer). It runs on one event-loop
 * thread of its own, so a slow scraper never delays a party's rounds, and serves until closed.
 *
 * <pre>{@code
 * MetricsRegistry registry = new MetricsRegistry();
 * Counter submissions = registry.counter("submissions_total", "Submissions received.");
 * try (MetricsServer server = MetricsServer.start(new InetSocketAddress(9464), registry)) {
 *   ...                                   // curl http://host:9464/metrics
 * }
 * }</pre>
 *
 * <p>The endpoint is plain HTTP without authentication: bind it to an address that only the
 * monitoring network reaches. Requests are small ({@value #MAX_REQUEST_BYTES} bytes of body at
 * most; a larger one is answered 413 by the codec) and a connection idle for {@value #IDLE_SECONDS}
 * s is closed, so idle scrapers cannot pile up.
 */
public final class MetricsServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);

  /** The largest request body accepted; GET requests have none. */
  static final int MAX_REQUEST_BYTES = 8192;

  /** A connection that sends no request for this long is closed. */
  static final int IDLE_SECONDS = 60;

  private final EventLoopGroup group;
  private final Channel server;

  private MetricsServer(EventLoopGroup group, Channel server) {
    this.group = group;
    this.server = server;
  }

  /**
   * Starts serving {@code registry} on {@code bind} (port 0 picks a free port; {@link
   * #localAddress} tells which). Throws an {@link java.io.UncheckedIOException} naming the address
   * when it cannot listen there, with the {@code java.net.BindException} as its cause, worded as a
   * party's bind failures are ({@link Failures#cannotListen(String, InetSocketAddress,
   * Throwable)}).
   */
  public static MetricsServer start(InetSocketAddress bind, MetricsRegistry registry) {
    Objects.requireNonNull(bind, "bind");
    Objects.requireNonNull(registry, "registry");
    EventLoopGroup group =
        NettyIo.newGroup(
            1,
            r -> {
              Thread t = new Thread(r, "cohort-metrics");
              t.setDaemon(true);
              return t;
            });
    MetricsHandler handler = new MetricsHandler(registry);
    Channel server;
    try {
      server =
          new ServerBootstrap()
              .group(group)
              .channel(NettyIo.serverChannel(group))
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                      ch.pipeline()
                          .addLast(new ReadTimeoutHandler(IDLE_SECONDS, TimeUnit.SECONDS))
                          .addLast(new HttpServerCodec())
                          .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                          .addLast(handler);
                    }
                  })
              .bind(bind)
              .syncUninterruptibly()
              .channel();
    } catch (Exception e) { // Netty rethrows the BindException unchecked, undeclared
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
      throw Failures.cannotListen("metrics endpoint", bind, e);
    }
    MetricsServer started = new MetricsServer(group, server);
    log.info("metrics endpoint listening on {}", started.localAddress());
    return started;
  }

  /** Where the endpoint listens. */
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) server.localAddress();
  }

  /** Stops listening, closes open connections and stops the event loop; idempotent. */
  @Override
  public void close() {
    server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
  }
}
