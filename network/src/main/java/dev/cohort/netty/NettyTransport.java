package dev.cohort.netty;

import dev.cohort.api.NetworkException;
import dev.cohort.net.Channel;
import dev.cohort.net.FramePlan;
import dev.cohort.netty.codec.FrameCodec;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.TransportChannel;
import dev.cohort.transport.TransportOptions;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import java.time.Duration;

/**
 * The {@link Channel} of one party over Netty: a verified connection to every peer (made by {@link
 * NettyNetwork#connect}). Each exchange writes and flushes at most one data frame per peer (handed
 * to the event loop in one task; links the round leaves without a frame get none, see {@link
 * FramePlan}) and then takes one frame from each peer the round hears from through its {@link
 * PeerLink}, waiting at most the receive timeout and waking once, when the last frame is there or a
 * peer fails.
 *
 * <p>Both threads of a round, the party thread waiting for its peers' frames ({@link Arrivals}) and
 * the event loop waiting for sockets and tasks ({@link BusyPollStrategy}), look for their work for
 * the options' busy-poll time before they sleep, so a chain of short rounds passes from thread to
 * thread without a wake-up system call.
 *
 * <p>A failure that follows a pause of this process itself (SIGSTOP, a debugger, swapping) longer
 * than its peers wait says so before naming the peer ({@link TransportChannel#explain}).
 *
 * <p>Byte counts in {@link #stats} are whole frames as they cross the connection (length field,
 * header and payload), before TLS adds its record overhead.
 *
 * <p>Not thread-safe: one party thread owns it, as the engine does.
 */
public final class NettyTransport extends TransportChannel {

  private final NettyNetwork network;
  private final PeerLink[] links;
  private final Arrivals arrivals;
  private final Duration receiveTimeout;
  private final FramePlan plan;
  private int round;
  private String failure; // once a peer failed, every later exchange fails the same way
  private boolean failureAborted; // that failure was the peer's abort frame

  NettyTransport(
      NettyNetwork network, PeerLink[] links, Arrivals arrivals, TransportOptions options) {
    super(network, options);
    this.arrivals = arrivals;
    this.network = network;
    this.links = links;
    this.receiveTimeout = options.receiveTimeout();
    this.plan = new FramePlan(network.myId(), links.length);
  }

  private static final long[] NONE = new long[0];

  @Override
  public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
    checkRound(outgoing, lengths); // all before any frame leaves: a round is all or none
    if (failure != null) {
      throw failureException(failure, failureAborted);
    }
    int self = myId();
    plan.next(lengths, receive);
    send(self, outgoing, lengths);
    long[][] incoming = receive(self);
    round++;
    return incoming;
  }

  /**
   * Builds every peer's frame on this thread and hands them to the event loop in one task, so a
   * round wakes the event loop once.
   */
  private void send(int self, long[][] outgoing, int[] lengths) {
    ByteBuf[] frames = new ByteBuf[links.length];
    EventLoop loop = null;
    for (int p = 0; p < links.length; p++) {
      io.netty.channel.Channel channel = links[p].channel();
      if (p == self || !plan.sends(p) || !channel.isActive()) {
        continue; // a peer that is gone: taking its frame reports why, naming it
      }
      int words = FramePlan.words(lengths, p);
      frames[p] = FrameCodec.data(channel.alloc(), round, words == 0 ? NONE : outgoing[p], words);
      stats.sent(p, frames[p].readableBytes());
      loop = channel.eventLoop();
    }
    if (loop == null) {
      return;
    }
    loop.execute(
        () -> {
          for (int p = 0; p < frames.length; p++) {
            if (frames[p] != null) {
              links[p].channel().writeAndFlush(frames[p]); // a failed write fails the peer's link
            }
          }
        });
  }

  /**
   * The frame of every peer the round takes one from, waking up once when the last one is there.
   */
  private long[][] receive(int self) {
    long[][] incoming = new long[links.length][];
    boolean[] taken = new boolean[links.length];
    int missing = 0;
    for (int p = 0; p < links.length; p++) {
      taken[p] = p == self || !plan.takes(p);
      if (!taken[p] && !(taken[p] = take(p, links[p].poll(), incoming, taken))) {
        missing++;
      }
    }
    long deadline = System.nanoTime() + receiveTimeout.toNanos();
    while (missing > 0) {
      arrivals.expect(missing);
      for (int p = 0; p < links.length; p++) {
        if (!taken[p]) {
          links[p].await();
        }
      }
      for (int p = 0; p < links.length; p++) {
        if (!taken[p]) {
          links[p].claimIfArrived();
        }
      }
      boolean inTime = arrivals.await(deadline);
      if (Thread.currentThread().isInterrupted()) {
        forgetAll(taken);
        throw new NetworkException(
            "interrupted while waiting for " + firstMissing(taken) + " in round " + round);
      }
      for (int p = 0; p < links.length; p++) {
        if (!taken[p] && (taken[p] = take(p, links[p].poll(), incoming, taken))) {
          missing--;
        }
      }
      if (!inTime && missing > 0) {
        forgetAll(taken);
        throw new NetworkException(
            explain(
                firstMissing(taken)
                    + " sent nothing for round "
                    + round
                    + " within "
                    + receiveTimeout.toMillis()
                    + " ms"));
      }
    }
    return incoming;
  }

  /**
   * Records {@code item} from peer {@code p}; false when there is none yet; throws on failures, and
   * on a frame that is not this round's ({@link FramePlan#refusal}).
   */
  private boolean take(int p, Object item, long[][] incoming, boolean[] taken) {
    if (failure != null) {
      throw failureException(failure, failureAborted);
    }
    if (item == null) {
      return false;
    }
    String refusal = null;
    if (item instanceof InboundFrame.Data data) {
      refusal = plan.refusal(p, data.round(), round, data.words().length);
      if (refusal == null) {
        incoming[p] = plan.deliver(p, data.words());
        stats.received(p, data.wireBytes());
        return true;
      }
    }
    forgetAll(taken);
    failure =
        explain(
            refusal != null
                ? links[p].name() + refusal
                : item == PeerLink.CLOSED
                    ? links[p].name() + " closed its connection before round " + round
                    : links[p].name() + " " + ((PeerLink.Failure) item).reason());
    failureAborted = item instanceof PeerLink.Failure f && f.aborted();
    if (refusal != null) {
      links[p].channel().close(); // its frames can no longer be matched to rounds
    }
    throw failureException(failure, failureAborted);
  }

  private String firstMissing(boolean[] taken) {
    for (int p = 0; p < links.length; p++) {
      if (!taken[p]) {
        return links[p].name();
      }
    }
    return "no peer";
  }

  private void forgetAll(boolean[] taken) {
    for (int p = 0; p < links.length; p++) {
      if (!taken[p]) {
        links[p].forget();
      }
    }
  }

  @Override
  protected void sendAbort(int peer, String reason) {
    io.netty.channel.Channel channel = links[peer].channel();
    if (channel.isActive()) {
      channel.writeAndFlush(FrameCodec.abort(channel.alloc(), round, reason));
    }
  }

  @Override
  protected void closeAfterAbort() {
    network.close();
  }

  @Override
  protected void closeNetwork() {
    network.close();
  }
}
