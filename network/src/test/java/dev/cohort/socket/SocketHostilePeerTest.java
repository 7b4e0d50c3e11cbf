package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.harness.PartyThreads;
import dev.cohort.transport.Allocations;
import dev.cohort.transport.HostilePeer;
import dev.cohort.transport.TransportOptions;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A corrupt P0 (a raw socket) against an honest P1 on the socket transport: what P0 declares must
 * not become memory held by P1, and idle connections must not become threads (issue 17, findings 5
 * and 9). The socket transport reads a peer only in the party thread's own round, so a peer that
 * runs rounds ahead waits in TCP's buffers by construction.
 */
class SocketHostilePeerTest {

  private static final InetSocketAddress NOBODY = new InetSocketAddress("127.0.0.1", 9);
  private static final long BOUND = 16 * Allocations.MIB;
  private static final String HANDSHAKE_THREADS = SocketNetwork.THREAD_PREFIX + "handshake-P1";

  private static TransportOptions options() {
    return TransportOptions.plaintextInsecure()
        .withHandshakeTimeout(Duration.ofSeconds(3))
        .withConnectTimeout(Duration.ofSeconds(20));
  }

  private final SocketNetwork party1 =
      SocketNetwork.bind(1, 2, new InetSocketAddress("127.0.0.1", 0), options());

  @AfterEach
  void close() {
    party1.close();
  }

  /**
   * The socket transport reads a peer only for the round its party thread is in: P0 sending 64 MiB
   * of rounds ahead fills TCP's buffers and then blocks, while P1 takes its rounds in order.
   */
  @Test
  void peerManyRoundsAhead_isReadOnlyRoundByRound() throws Exception {
    int words = 1024;
    int rounds = 8192; // 64 MiB, far beyond what the TCP buffers of both ends hold
    try (HostilePeer p0 = new HostilePeer(party1.localAddress())) {
      CompletableFuture<SocketTransport> connecting =
          CompletableFuture.supplyAsync(
              () -> party1.connect(List.of(NOBODY, party1.localAddress())));
      p0.hello(0);
      SocketTransport transport = connecting.get(20, TimeUnit.SECONDS);
      Future<?> flood = p0.flood(rounds, words);
      long before = Allocations.ofCurrentThread();
      for (int r = 0; r < 40; r++) {
        long[][] incoming = transport.exchange(new long[][] {{7}, null}, new int[] {1, 0});
        long[] expected = new long[words];
        Arrays.fill(expected, r);
        assertArrayEquals(expected, incoming[0], "round " + r);
      }
      long allocated = Allocations.ofCurrentThread() - before;
      assertTrue(allocated < BOUND, allocated + " bytes allocated by P1's party thread");
      assertFalse(flood.isDone(), "P0 got 64 MiB out while P1 took 40 rounds");
    } finally {
      party1.close();
    }
  }

  /**
   * Finding 9: a stranger opens many connections and says nothing. P1 verifies only a bounded
   * number at once (a thread each) and closes the others at once; an honest P0 connects once the
   * stranger's connections are gone.
   */
  @Test
  void manyIdleConnections_costBoundedThreadsAndAnHonestPeerStillConnects() throws Exception {
    int idle = 48;
    List<Socket> strangers = new ArrayList<>();
    try {
      for (int i = 0; i < idle; i++) {
        strangers.add(new Socket("127.0.0.1", party1.localAddress().getPort()));
      }
      // Accepted in order: once this one is dealt with, every idle one has been accepted.
      try (HostilePeer last = new HostilePeer(party1.localAddress())) {
        last.write(HostilePeer.prefix(8, 7, 0)); // an unknown channel: refused at once either way
        last.awaitClosedByPeer();
      }
      long verifying =
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.isAlive() && t.getName().startsWith(HANDSHAKE_THREADS))
              .count();
      assertTrue(
          verifying <= SocketNetwork.maxVerifying(2),
          verifying + " threads verify connections for " + idle + " idle ones");
    } finally {
      for (Socket s : strangers) {
        s.close();
      }
    }
    SocketNetwork party0 =
        SocketNetwork.bind(0, 2, new InetSocketAddress("127.0.0.1", 0), options());
    List<InetSocketAddress> addresses = List.of(party0.localAddress(), party1.localAddress());
    List<SocketTransport> transports =
        PartyThreads.each(2, p -> (p == 0 ? party0 : party1).connect(addresses));
    try {
      List<long[][]> received =
          PartyThreads.each(
              2, p -> transports.get(p).exchange(new long[][] {{5}, {6}}, new int[] {1, 1}));
      assertArrayEquals(new long[] {6}, received.get(1)[0], "P0's word for P1");
      assertArrayEquals(new long[] {5}, received.get(0)[1], "P1's word for P0");
    } finally {
      transports.forEach(SocketTransport::close);
    }
  }
}
