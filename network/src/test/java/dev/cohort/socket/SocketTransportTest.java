package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.harness.PartyThreads;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.LoopbackMesh;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.transport.Allocations;
import dev.cohort.transport.LiveThreads;
import dev.cohort.transport.TransportChannel;
import dev.cohort.transport.TransportContractTest;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.WireFormat;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The socket transport on loopback: the {@link TransportContractTest} contract, and what only this
 * transport does (writer threads for large frames, interoperation with Netty parties).
 */
class SocketTransportTest extends TransportContractTest {

  SocketTransportTest() {
    super(Transport.SOCKET, network -> ((SocketNetwork) network).isReleased());
  }

  /**
   * A connection is verified on a handshake thread of its own; once connected, a peer's frames are
   * read by the party thread itself, in its round.
   */
  @Override
  protected LongSupplier readerAllocations(TransportNetwork party, boolean helloSeen) {
    String handshakes =
        SocketNetwork.THREAD_PREFIX + "handshake-P" + ((SocketNetwork) party).myId();
    return helloSeen ? Allocations::ofCurrentThread : () -> Allocations.ofThreadsNamed(handshakes);
  }

  /** A failed socket channel stays failed: every later exchange throws the first failure. */
  @Override
  protected void assertFailedAgain(String first, String again) {
    assertEquals(first, again, "a failed channel stays failed");
  }

  /** The party thread sends its round before it reads the peer's. */
  @Override
  protected void assertAnswerToBrokenPeer(Breach breach, byte[] answer) {
    assertEquals(20 + 12, answer.length, "P1 sent its hello and frame, then closed");
  }

  private static IntFunction<TransportOptions> security(String security) {
    return security.equals("tls") ? keys::options : p -> plaintext();
  }

  /**
   * What {@code from} sends {@code to} in {@code round}, the same on both sides: empty, one word,
   * an odd number of words, or more than a small frame holds (so it goes through a writer thread).
   */
  private static long[] words(int from, int to, int round) {
    SplittableRandom random = new SplittableRandom(1_000_003L * (64 * from + to) + round);
    int length =
        switch (random.nextInt(5)) {
          case 0 -> 0;
          case 1 -> 1;
          case 2 -> 2 * random.nextInt(500) + 1;
          case 3 -> PeerConnection.DIRECT_BYTES / 8 + 1 + 2 * random.nextInt(1000);
          default -> random.nextInt(64);
        };
    return random.longs(length).toArray();
  }

  /** Every party exchanges {@link #words} for {@code rounds} rounds and checks what arrives. */
  private static void exchangeRounds(List<? extends Channel> transports, int from, int rounds) {
    int parties = transports.size();
    PartyThreads.each(
        parties,
        p -> {
          for (int r = from; r < from + rounds; r++) {
            long[][] out = new long[parties][];
            int[] lengths = new int[parties];
            for (int q = 0; q < parties; q++) {
              if (q != p) {
                out[q] = words(p, q, r);
                lengths[q] = out[q].length;
              }
            }
            long[][] in = transports.get(p).exchange(out, lengths);
            for (int q = 0; q < parties; q++) {
              if (q == p) {
                assertNull(in[q]);
              } else {
                assertArrayEquals(words(q, p, r), in[q], "P" + p + " from P" + q + ", round " + r);
              }
            }
          }
          return null;
        });
  }

  @ParameterizedTest(name = "{0} parties, {1}")
  @CsvSource({"3, tls", "4, tls", "3, plaintext", "4, plaintext"})
  void exchange_randomWordsManyRounds_deliversOneWholeFramePerPeerPerRound(
      int parties, String security) {
    int rounds = 150;
    try (LoopbackMesh mesh = Loopback.of(Transport.SOCKET, security(security)).bind(parties)) {
      List<TransportChannel> transports = PartyThreads.each(parties, mesh::connect);
      exchangeRounds(transports, 0, rounds);
      for (int p = 0; p < parties; p++) {
        TrafficStats stats = transports.get(p).stats();
        for (int q = 0; q < parties; q++) {
          long sent = 0;
          long received = 0;
          for (int r = 0; r < rounds; r++) {
            sent += WireFormat.dataFrameBytes(words(p, q, r).length);
            received += WireFormat.dataFrameBytes(words(q, p, r).length);
          }
          assertEquals(q == p ? 0 : rounds, stats.framesSent[q], "frames P" + p + " to P" + q);
          assertEquals(q == p ? 0 : rounds, stats.framesReceived[q]);
          assertEquals(q == p ? 0 : sent, stats.bytesSent[q], "whole frames, before TLS");
          assertEquals(q == p ? 0 : received, stats.bytesReceived[q]);
        }
      }
    }
  }

  @ParameterizedTest
  @CsvSource({"0", "2"})
  void exchange_nettyPartyAmongSocketParties_speaksTheSameWireFormat(int nettyParty) {
    int parties = 3;
    List<TransportNetwork> networks = new ArrayList<>();
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      Transport transport = p == nettyParty ? Transport.NETTY : Transport.SOCKET;
      TransportNetwork network =
          transport.bind(p, parties, new InetSocketAddress("127.0.0.1", 0), keys.options(p));
      networks.add(network);
      addresses.add(network.localAddress());
    }
    List<Channel> channels = PartyThreads.each(parties, p -> networks.get(p).connect(addresses));
    try {
      exchangeRounds(channels, 0, 40);
    } finally {
      channels.forEach(Channel::close);
    }
  }

  @Test
  void exchange_severalMiBBothWaysAtOnce_neitherDeadlocksAndCloseStopsEveryThread()
      throws Exception {
    long threadsBefore = LiveThreads.count(SocketNetwork.THREAD_PREFIX);
    int parties = 3;
    int large = (1 << 19) + 1; // 4 MiB and a word, to and from every peer in the same round
    int[] pattern = {large, 3, large, 0, 1};
    try (LoopbackMesh mesh = Loopback.of(Transport.SOCKET, keys::options).bind(parties)) {
      List<TransportChannel> transports = PartyThreads.each(parties, mesh::connect);
      PartyThreads.each(
          parties,
          p -> {
            for (int r = 0; r < pattern.length; r++) {
              long[][] out = new long[parties][];
              int[] lengths = new int[parties];
              for (int q = 0; q < parties; q++) {
                out[q] = new SplittableRandom(100L * p + 10 * q + r).longs(pattern[r]).toArray();
                lengths[q] = pattern[r];
              }
              long[][] in = transports.get(p).exchange(out, lengths);
              for (int q = 0; q < parties; q++) {
                if (q != p) {
                  long[] expected =
                      new SplittableRandom(100L * q + 10 * p + r).longs(pattern[r]).toArray();
                  assertArrayEquals(expected, in[q], "P" + p + " from P" + q + ", round " + r);
                }
              }
            }
            return null;
          });
      assertEquals(6, writerThreads(), "every large frame went through a writer thread");
      assertEquals(pattern.length, transports.get(0).stats().framesSent[1]);
    }
    long threadsAfter = LiveThreads.awaitAtMost(SocketNetwork.THREAD_PREFIX, threadsBefore);
    assertTrue(threadsAfter <= threadsBefore, (threadsAfter - threadsBefore) + " threads left");
  }

  private static long writerThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(SocketNetwork.THREAD_PREFIX + "writer"))
        .count();
  }

  private static String name(LoopbackMesh mesh, int party) {
    return "P" + party + " (127.0.0.1:" + mesh.addresses().get(party).getPort() + ")";
  }

  @ParameterizedTest
  @CsvSource({"tls", "plaintext"})
  void exchange_peerClosesMidRun_othersFailPromptlyNamingIt(String security) {
    IntFunction<TransportOptions> options =
        p -> security(security).apply(p).withReceiveTimeout(Duration.ofSeconds(20));
    AtomicLong closedAt = new AtomicLong();
    long[] failedAt = new long[3];
    try (LoopbackMesh mesh = Loopback.of(Transport.SOCKET, options).bind(3)) {
      List<TransportChannel> transports = PartyThreads.each(3, mesh::connect);
      PartyThreads.Task<Void> closeInRoundFive =
          p -> {
            for (int r = 0; r < 10; r++) {
              if (p == 2 && r == 5) {
                closedAt.set(System.nanoTime());
                transports.get(2).close();
                return null;
              }
              try {
                transports.get(p).exchange(new long[3][2], new int[] {2, 2, 2});
              } catch (NetworkException e) {
                failedAt[p] = System.nanoTime();
                throw e;
              }
            }
            return null;
          };
      List<PartyFailedException> failures =
          assertThrows(PartyFailedException.class, () -> PartyThreads.each(3, closeInRoundFive))
              .failures();
      assertEquals(2, failures.size(), "P0 and P1 failed");
      String p2 = name(mesh, 2);
      for (PartyFailedException f : failures) {
        String message = f.getCause().getMessage();
        assertTrue(f.getCause() instanceof NetworkException, f.getCause().toString());
        // Closed cleanly, or reset because a frame for round 5 reached P2 before it closed.
        assertTrue(
            message.equals(p2 + " closed its connection before round 5")
                || message.equals(p2 + " failed: Connection reset; connection closed"),
            message);
        int p = f.party().index();
        long millis = TimeUnit.NANOSECONDS.toMillis(failedAt[p] - closedAt.get());
        assertTrue(millis < 2000, "P" + p + " failed " + millis + " ms after the close");
      }
    }
  }

  @Test
  void exchange_peerReadsNothingOfALargeFrame_failsAfterTheTimeoutAndClosesWithoutHanging()
      throws Exception {
    long threadsBefore = LiveThreads.count(SocketNetwork.THREAD_PREFIX);
    try (LoopbackMesh mesh =
        Loopback.of(Transport.SOCKET, p -> plaintext().withReceiveTimeout(Duration.ofMillis(300)))
            .bind(2)) {
      Channel t0 = PartyThreads.each(2, mesh::connect).get(0);
      int words = 1 << 20; // 8 MiB: far more than the buffers hold while P1 reads nothing
      long start = System.nanoTime();
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> t0.exchange(new long[][] {null, new long[words]}, new int[] {0, words}));
      assertEquals(name(mesh, 1) + " sent nothing for round 0 within 300 ms", e.getMessage());
      assertTrue(
          System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "the write did not block");
      long closing = System.nanoTime();
      t0.close(); // its writer is still stuck in the 8 MiB write
      assertTrue(System.nanoTime() - closing < TimeUnit.SECONDS.toNanos(5), "close did not hang");
    }
    long threadsAfter = LiveThreads.awaitAtMost(SocketNetwork.THREAD_PREFIX, threadsBefore);
    assertTrue(threadsAfter <= threadsBefore, (threadsAfter - threadsBefore) + " threads left");
  }
}
