package dev.cohort.metrics;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one HTTP request (decoded and aggregated by Netty's HTTP codec) of the metrics endpoint:
 *
 * <pre>
 * GET /health    200 application/json  {"status":"ok"}
 * GET /metrics   200 text/plain; version=0.0.4; charset=utf-8   the registry's scrape
 * other method   405 with Allow: GET   (on /health and /metrics)
 * other path     404
 * not HTTP       400, then the connection is closed
 * </pre>
 *
 * <p>The query string is ignored. Connections stay open as the client asks (HTTP/1.1 keep-alive).
 * Stateless, so one instance serves every connection.
 */
@Sharable
final class MetricsHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

  private static final Logger log = LoggerFactory.getLogger(MetricsHandler.class);

  private final MetricsRegistry registry;

  MetricsHandler(MetricsRegistry registry) {
    this.registry = registry;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
    if (request.decoderResult().isFailure()) {
      respond(ctx, false, HttpResponseStatus.BAD_REQUEST, "text/plain", "bad request\n");
      return;
    }
    boolean keepAlive = HttpUtil.isKeepAlive(request);
    String path = new QueryStringDecoder(request.uri()).path();
    if (!path.equals("/health") && !path.equals("/metrics")) {
      respond(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, "text/plain", "not found\n");
    } else if (!request.method().equals(HttpMethod.GET)) {
      respond(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED, "text/plain", "use GET\n");
    } else if (path.equals("/health")) {
      respond(ctx, keepAlive, HttpResponseStatus.OK, "application/json", "{\"status\":\"ok\"}");
    } else {
      scrape(ctx, keepAlive);
    }
  }

  private void scrape(ChannelHandlerContext ctx, boolean keepAlive) {
    String text;
    try {
      text = registry.scrape();
    } catch (RuntimeException e) { // a gauge's supplier failed: say so, keep serving
      log.warn("a metric could not be read: {}", e.toString());
      respond(
          ctx,
          keepAlive,
          HttpResponseStatus.INTERNAL_SERVER_ERROR,
          "text/plain",
          "a metric could not be read\n");
      return;
    }
    respond(ctx, keepAlive, HttpResponseStatus.OK, PrometheusText.CONTENT_TYPE, text);
  }

  private static void respond(
      ChannelHandlerContext ctx,
      boolean keepAlive,
      HttpResponseStatus status,
      String contentType,
      String body) {
    ByteBuf content = ByteBufUtil.writeUtf8(ctx.alloc(), body);
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes());
    if (status == HttpResponseStatus.METHOD_NOT_ALLOWED) {
      response.headers().set(HttpHeaderNames.ALLOW, HttpMethod.GET.name());
    }
    if (keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
      ctx.writeAndFlush(response);
    } else {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug(
        "metrics connection from {} closed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
