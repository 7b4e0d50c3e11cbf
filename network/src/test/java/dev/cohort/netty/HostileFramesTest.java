package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.transport.Allocations;
import dev.cohort.transport.HostilePeer;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.WireFormat;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A corrupt P0 against an honest P1 over the Netty transport: what it declares or sends ahead must
 * not become memory held by P1 (issue 17, finding 5). P1 runs the real network on loopback; P0 is a
 * raw socket.
 */
@ExtendWith(LeakCheck.class)
class HostileFramesTest {

  private static final InetSocketAddress NOBODY = new InetSocketAddress("127.0.0.1", 9);
  private static final long BOUND = 16 * Allocations.MIB;

  private final NettyNetwork party1 =
      NettyNetwork.bind(
          1,
          2,
          new InetSocketAddress("127.0.0.1", 0),
          TransportOptions.plaintextInsecure()
              .withHandshakeTimeout(Duration.ofSeconds(3))
              .withConnectTimeout(Duration.ofSeconds(20)));
  private final Thread eventLoop;

  HostileFramesTest() throws Exception {
    eventLoop = party1.eventLoop().submit(Thread::currentThread).get();
  }

  @AfterEach
  void close() {
    party1.close();
  }

  /** P1's transport, once the hostile P0 has said its hello. */
  private NettyTransport connect(HostilePeer p0) throws Exception {
    CompletableFuture<NettyTransport> connecting =
        CompletableFuture.supplyAsync(() -> party1.connect(List.of(NOBODY, party1.localAddress())));
    p0.hello(0);
    return connecting.get(20, TimeUnit.SECONDS);
  }

  @Test
  void hugeAbortReason_isCutToAKibibyte() throws Exception {
    try (HostilePeer p0 = new HostilePeer(party1.localAddress())) {
      NettyTransport transport = connect(p0);
      long before = Allocations.of(eventLoop);
      int reasonBytes = 32 << 20;
      p0.write(HostilePeer.prefix(WireFormat.HEADER_BYTES + reasonBytes, WireFormat.ABORT, 0));
      byte[] chunk = new byte[1 << 20];
      Arrays.fill(chunk, (byte) 'x');
      for (int sent = 0; sent < reasonBytes; sent += chunk.length) {
        p0.write(chunk);
      }
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> transport.exchange(new long[][] {{7}, null}, new int[] {1, 0}));
      assertEquals(
          "P0 (127.0.0.1:9) aborted in round 0: "
              + "x".repeat(1024)
              + "... (reason cut from 33554432 bytes)",
          e.getMessage());
      long allocated = Allocations.of(eventLoop) - before;
      assertTrue(allocated < BOUND, allocated + " bytes allocated by P1's event loop");
    }
  }

  /**
   * P0 sends round after round while P1's party thread is busy elsewhere: P1 stops reading P0's
   * connection once a few rounds wait, so P0's writes block in TCP instead of filling P1's heap,
   * and P1 reads on as it takes the rounds, every frame in order.
   */
  @Test
  void peerManyRoundsAhead_isNotReadBeyondAFewRounds() throws Exception {
    int words = 1024;
    int rounds = 8192; // 64 MiB, far beyond what the TCP buffers of both ends hold
    try (HostilePeer p0 = new HostilePeer(party1.localAddress())) {
      NettyTransport transport = connect(p0);
      Future<?> flood = p0.flood(rounds, words);
      // Nothing to wait for on the fixed code but the absence of progress: give P0 the time it
      // needs to send everything when P1 reads on (well under a second on loopback).
      assertThrows(
          TimeoutException.class, () -> flood.get(2, TimeUnit.SECONDS), "P0 got it all out");
      PeerLink link = party1.link(0);
      int waiting = link.queued();
      assertTrue(waiting <= 16, waiting + " rounds of P0 queued at P1");
      assertFalse(link.channel().config().isAutoRead(), "P1 stopped reading P0");
      for (int r = 0; r < 40; r++) {
        long[][] incoming = transport.exchange(new long[][] {{7}, null}, new int[] {1, 0});
        long[] expected = new long[words];
        Arrays.fill(expected, r);
        assertArrayEquals(expected, incoming[0], "round " + r);
      }
      assertTrue(link.queued() <= 16, link.queued() + " rounds of P0 queued at P1");
      assertFalse(flood.isDone(), "P0 is still blocked");
    } finally {
      party1.close();
    }
  }
}
