package dev.cohort.socket;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.net.Channel;
import dev.cohort.net.FramePlan;
import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.TransportChannel;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.WireFormat;
import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * The {@link Channel} of one party over blocking sockets (made by {@link SocketNetwork#connect}):
 * the party's own thread writes its frames and reads its peers' frames, with no event loop in
 * between. Each exchange writes at most one data frame per peer (links the round leaves without a
 * frame get none, see {@link FramePlan}), then reads one frame from each peer the round hears from,
 * in party order, all reads bounded by one receive deadline.
 *
 * <p>Pick it over the Netty transport when rounds are latency-bound: small frames, few parties,
 * many dependent rounds. A round of the Netty transport crosses four threads (party thread, event
 * loop, peer's event loop, peer's party thread); here a frame goes from the party thread into the
 * kernel and out to the peer's party thread, blocked in its read. Pick Netty for many parties (a
 * thread blocked on one peer cannot serve the others; reads are in party order), link emulation,
 * BoringSSL, or heartbeats.
 *
 * <p>Measured on 2 cores shared with other work (load average about 7), 3 parties in one JVM over
 * loopback, TLS 1.3 with mutual authentication on both transports, the same run for both:
 *
 * <ul>
 *   <li>one word to and from each peer, the exchange loop alone, warm: 36, 44 and 79 µs per round
 *       in three runs (Netty: 84, 104 and 110 µs; bare JDK SSLSockets writing and reading 16 bytes:
 *       37, 38 and 58 µs);
 *   <li>{@code BgwMultiplyBenchmark.dependentMultiply} (m61): medians of three runs 86, 62 and 85
 *       µs per multiplication against 182, 121 and 140 µs, a ratio of 0.5–0.6 in every run;
 *   <li>8 MB frames each way ({@code NetworkBenchmark.exchangeMillion}): 9.9 rounds/s against 5.5,
 *       with AES-128-GCM (see {@link SocketNetwork}); large-frame SPDZ and session benchmarks are
 *       on par within the noise.
 * </ul>
 *
 * <p>Frames larger than {@link PeerConnection#DIRECT_BYTES} are written by a writer thread per peer
 * while the party thread reads, so parties sending MiB frames to each other cannot deadlock. The
 * wire format is the Netty transport's ({@link WireFormat}), and so are the errors: a peer that
 * closes, resets, breaks the format, aborts or sends nothing within the receive timeout fails the
 * exchange with a {@link NetworkException} naming it, and every later exchange the same way. A
 * failure reaches a party that is blocked on another peer through that peer's abort frame, whose
 * reason names the first.
 *
 * <p>A failure that follows a pause of this process itself (SIGSTOP, a debugger, swapping) longer
 * than its peers wait says so before naming the peer ({@link TransportChannel#explain}).
 *
 * <p>Byte counts in {@link #stats} are whole frames as they cross the connection (length field,
 * header and payload), before TLS adds its record overhead.
 *
 * <p>Not thread-safe: one party thread owns it, as the engine does. A blocked read does not end on
 * an interrupt, only at the receive deadline or when the transport is closed.
 */
public final class SocketTransport extends TransportChannel {

  private final SocketNetwork network;
  private final PeerConnection[] peers;
  private final String[] names;
  private final String[] writerNames;
  private final long receiveNanos;
  private final long receiveMillis;
  private final FramePlan plan;
  private int round;
  private String failure; // once a peer failed, every later exchange fails the same way
  private boolean failureAborted; // that failure was the peer's abort frame

  SocketTransport(
      SocketNetwork network, PeerConnection[] peers, String[] names, TransportOptions options) {
    super(network, options);
    this.network = network;
    this.peers = peers;
    this.names = names;
    this.writerNames = new String[peers.length];
    for (int p = 0; p < peers.length; p++) {
      writerNames[p] =
          SocketNetwork.THREAD_PREFIX
              + "writer-"
              + PartyId.of(network.myId())
              + "-to-"
              + PartyId.of(p);
    }
    this.receiveNanos = options.receiveTimeout().toNanos();
    this.receiveMillis = options.receiveTimeout().toMillis();
    this.plan = new FramePlan(network.myId(), peers.length);
  }

  private static final long[] NONE = new long[0];

  @Override
  public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
    checkRound(outgoing, lengths); // all before any frame leaves: a round is all or none
    int self = myId();
    if (failure != null) {
      throw failureException(failure, failureAborted);
    }
    plan.next(lengths, receive);
    for (int p = 0; p < peers.length; p++) {
      if (p != self && plan.sends(p)) {
        int words = FramePlan.words(lengths, p);
        long[] frame = words == 0 ? NONE : outgoing[p];
        stats.sent(p, peers[p].sendData(round, frame, words, writerNames[p]));
      }
    }
    long deadline = System.nanoTime() + receiveNanos;
    long[][] incoming = new long[peers.length][];
    for (int p = 0; p < peers.length; p++) {
      if (p != self && plan.takes(p)) {
        incoming[p] = plan.deliver(p, receive(p, deadline));
      }
    }
    round++;
    return incoming;
  }

  /** Peer {@code p}'s frame of this round; throws, naming it, on anything else. */
  private long[] receive(int p, long deadline) {
    InboundFrame frame;
    try {
      frame = peers[p].read(deadline);
    } catch (SocketTimeoutException e) {
      throw fail(p, " sent nothing for round " + round + " within " + receiveMillis + " ms", false);
    } catch (IOException e) {
      throw fail(p, " failed: " + Failures.describe(e) + "; connection closed", true);
    }
    if (frame instanceof InboundFrame.Data data) {
      String writeFailure = peers[p].writeFailure();
      if (writeFailure != null) {
        throw fail(p, " failed: " + writeFailure + "; connection closed", true);
      }
      String refusal = plan.refusal(p, data.round(), round, data.words().length);
      if (refusal != null) {
        throw fail(p, refusal + "; connection closed", true);
      }
      stats.received(p, data.wireBytes());
      return data.words();
    }
    if (frame == null) {
      throw fail(p, " closed its connection before round " + round, true);
    }
    if (frame instanceof InboundFrame.Abort abort) {
      failureAborted = true;
      throw fail(p, " aborted in round " + abort.round() + ": " + abort.reason(), true);
    }
    if (frame instanceof InboundFrame.Error error) {
      throw fail(p, " broke the frame format: " + error.reason() + "; connection closed", true);
    }
    throw fail(p, " sent a second hello; connection closed", true);
  }

  private NetworkException fail(int p, String what, boolean closeConnection) {
    failure = explain(names[p] + what);
    peers[p].failed();
    if (closeConnection) {
      PeerConnection.closeQuietly(peers[p].raw);
    }
    return failureException(failure, failureAborted);
  }

  @Override
  protected void sendAbort(int peer, String reason) {
    peers[peer].sendAbort(round, reason, writerNames[peer]);
  }

  @Override
  protected void closeAfterAbort() {
    network.closeAfterFailure();
  }

  /**
   * Closes every connection when the channel is closed, after the frames still being written have
   * left (waiting at most the receive timeout, or 2 s once the channel failed), and stops every
   * thread.
   */
  @Override
  protected void closeNetwork() {
    if (failure == null) {
      network.close();
    } else {
      network.closeAfterFailure();
    }
  }
}
