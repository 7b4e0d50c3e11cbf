package dev.cohort.netty;

import dev.cohort.transport.LinkEmulation;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Emulates a slower link on one connection: every outbound message leaves {@code latency} after the
 * link has finished "transmitting" it at {@code bytesPerSecond}. Invariant: messages leave in the
 * order they were written, each flushed as it leaves.
 *
 * <p>A message of b bytes written at time t starts when the link is free, {@code start = max(t,
 * free)}, occupies it for b / bytesPerSecond ({@code free = start + b / rate}), and is handed on at
 * {@code free + latency}. Departure times never decrease, so one timer on the event loop for the
 * head of a FIFO queue keeps the order. Messages still queued when the connection closes are
 * released and their promises failed.
 */
final class LinkEmulationHandler extends ChannelOutboundHandlerAdapter {

  private record Pending(Object message, ChannelPromise promise, long departNanos) {}

  private final long latencyNanos;
  private final long bytesPerSecond;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private long linkFreeNanos;
  private ScheduledFuture<?> timer;

  LinkEmulationHandler(LinkEmulation emulation) {
    this.latencyNanos = emulation.latency().toNanos();
    this.bytesPerSecond = emulation.bytesPerSecond();
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    long now = System.nanoTime();
    long start = Math.max(now, linkFreeNanos);
    long bytes = msg instanceof ByteBuf buf ? buf.readableBytes() : 0;
    long transmit = bytesPerSecond == 0 ? 0 : (long) (bytes * 1e9 / bytesPerSecond);
    linkFreeNanos = start + transmit;
    queue.add(new Pending(msg, promise, linkFreeNanos + latencyNanos));
    if (timer == null) {
      schedule(ctx, now);
    }
  }

  @Override
  public void flush(ChannelHandlerContext ctx) {
    // Each message is flushed when it departs.
  }

  private void schedule(ChannelHandlerContext ctx, long now) {
    long delay = Math.max(0, queue.peek().departNanos - now);
    timer = ctx.executor().schedule(() -> depart(ctx), delay, TimeUnit.NANOSECONDS);
  }

  private void depart(ChannelHandlerContext ctx) {
    timer = null;
    long now = System.nanoTime();
    boolean wrote = false;
    while (!queue.isEmpty() && queue.peek().departNanos - now <= 0) {
      Pending p = queue.poll();
      ctx.write(p.message, p.promise);
      wrote = true;
    }
    if (wrote) {
      ctx.flush();
    }
    if (!queue.isEmpty()) {
      schedule(ctx, now);
    }
  }

  @Override
  public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
    discard();
    ctx.close(promise);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    discard();
  }

  private void discard() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
    Pending p;
    while ((p = queue.poll()) != null) {
      ReferenceCountUtil.release(p.message);
      if (!p.promise.isVoid()) {
        p.promise.tryFailure(new ClosedChannelException());
      }
    }
  }
}
