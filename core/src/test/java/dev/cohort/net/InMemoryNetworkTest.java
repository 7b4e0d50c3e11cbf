package dev.cohort.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PeerAbortedException;
import dev.cohort.testing.SparseRoundsContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The in-memory transport keeps the {@link Channel} contract: frames in order, one per peer per
 * round; a peer's abort fails the others at once; a silent peer fails them after the timeout; and
 * traffic is counted per peer.
 */
class InMemoryNetworkTest {

  private static final Duration LONG = Duration.ofSeconds(30);

  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stopThreads() {
    pool.shutdownNow();
  }

  /** One frame per peer: {@code words[p]} words for peer {@code p}. */
  private static long[][] frames(int parties, int[] lengths, long tag) {
    long[][] out = new long[parties][];
    for (int p = 0; p < parties; p++) {
      out[p] = new long[lengths[p] + 3]; // room to spare: only lengths[p] words may be sent
      for (int i = 0; i < out[p].length; i++) {
        out[p][i] = tag * 1_000_000 + p * 1000 + i;
      }
    }
    return out;
  }

  /** The frame {@code from} sends {@code to} in {@code round}: its length varies by round. */
  private static int length(int from, int to, int round) {
    return (round * 7 + from * 3 + to) % 11;
  }

  private static long tag(int from, int round) {
    return 1 + from * 1000L + round;
  }

  /** Blocking at once (0), and looking first for up to 100 us or a whole second. */
  @ParameterizedTest
  @ValueSource(longs = {0, 100_000, 1_000_000_000})
  void exchange_manyRounds_framesArriveInOrderWithTheirLengths(long busyPollNanos)
      throws Exception {
    int parties = 3;
    int rounds = 200;
    InMemoryNetwork network = new InMemoryNetwork(parties, LONG, Duration.ofNanos(busyPollNanos));
    List<Future<Void>> futures = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      Channel channel = network.channel(p);
      futures.add(
          pool.submit(
              () -> {
                int self = channel.myId();
                for (int round = 0; round < rounds; round++) {
                  int[] lengths = new int[parties];
                  for (int to = 0; to < parties; to++) {
                    lengths[to] = to == self ? 0 : length(self, to, round);
                  }
                  long[][] in =
                      channel.exchange(frames(parties, lengths, tag(self, round)), lengths);
                  assertNull(in[self], "no frame from oneself");
                  for (int from = 0; from < parties; from++) {
                    if (from != self) {
                      long[] expected = new long[length(from, self, round)];
                      for (int i = 0; i < expected.length; i++) {
                        expected[i] = tag(from, round) * 1_000_000 + self * 1000 + i;
                      }
                      assertArrayEquals(expected, in[from], "P" + from + " -> P" + self);
                    }
                  }
                }
                return null;
              }));
    }
    for (Future<Void> f : futures) {
      f.get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void constructor_negativeBusyPoll_refused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new InMemoryNetwork(2, LONG, Duration.ofNanos(-1)));
    assertEquals("busy poll (PT-0.000000001S) must be zero or positive", e.getMessage());
  }

  @Test
  void exchange_peerAborted_failsNamingThePeerAtOnce() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(3, LONG);
    Channel p0 = network.channel(0);
    Channel p1 = network.channel(1);
    Channel p2 = network.channel(2);
    Future<?> r0 = pool.submit(() -> p0.exchange(new long[3][1], new int[] {0, 1, 1}));
    Future<?> r1 = pool.submit(() -> p1.exchange(new long[3][1], new int[] {1, 0, 1}));
    long start = System.nanoTime();
    p2.abort("IllegalStateException: gave up");
    for (Future<?> f : List.of(r0, r1)) {
      NetworkException e = networkFailure(f);
      assertEquals("P2 aborted in round 0: IllegalStateException: gave up", e.getMessage());
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertTrue(millis < 5_000, "peers took " + millis + " ms to notice, timeout 30 s");
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> p2.exchange(new long[3][0], new int[3]));
    assertEquals("P2's channel is closed", closed.getMessage());
  }

  @Test
  void exchange_peerAbortedAfterRounds_namesTheRound() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(2, LONG);
    Channel p0 = network.channel(0);
    Channel p1 = network.channel(1);
    Future<?> ok = pool.submit(() -> p1.exchange(new long[2][1], new int[] {1, 0}));
    p0.exchange(new long[2][1], new int[] {0, 1});
    ok.get(10, TimeUnit.SECONDS);
    p0.abort("AbortException: MAC check failed");
    NetworkException e =
        assertThrows(
            PeerAbortedException.class, () -> p1.exchange(new long[2][1], new int[] {1, 0}));
    assertEquals("P0 aborted in round 1: AbortException: MAC check failed", e.getMessage());
  }

  @Test
  void exchange_peerClosed_failsNamingThePeer() {
    InMemoryNetwork network = new InMemoryNetwork(2, LONG);
    Channel p0 = network.channel(0);
    Channel p1 = network.channel(1);
    p1.close();
    NetworkException e =
        assertThrows(NetworkException.class, () -> p0.exchange(new long[2][1], new int[] {0, 1}));
    assertEquals("P1 closed its connection before round 0", e.getMessage());
  }

  @Test
  void exchange_silentPeer_failsAfterTimeoutNamingThePeer() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(3, Duration.ofMillis(200));
    Channel p0 = network.channel(0);
    Channel p1 = network.channel(1);
    network.channel(2); // P2 never sends
    Future<?> r1 = pool.submit(() -> p1.exchange(new long[3][0], new int[3]));
    long start = System.nanoTime();
    NetworkException e =
        assertThrows(NetworkException.class, () -> p0.exchange(new long[3][0], new int[3]));
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertEquals("P2 sent nothing for round 0 within 200 ms", e.getMessage());
    assertTrue(millis >= 190 && millis < 5_000, "failed after " + millis + " ms");
    assertEquals("P2 sent nothing for round 0 within 200 ms", networkFailure(r1).getMessage());
  }

  @Test
  void stats_countBytesAndFramesPerPeer() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(3, LONG);
    Channel[] channels = {network.channel(0), network.channel(1), network.channel(2)};
    // Round 0: P0 sends 5 words to P1 and 2 to P2; P1 sends 1 to each; P2 sends nothing.
    // Round 1: everyone sends 3 words to everyone.
    int[][][] lengths = {
      {{0, 5, 2}, {1, 0, 1}, {0, 0, 0}},
      {{0, 3, 3}, {3, 0, 3}, {3, 3, 0}},
    };
    for (int round = 0; round < 2; round++) {
      List<Future<long[][]>> futures = new ArrayList<>();
      for (int p = 0; p < 3; p++) {
        int[] l = lengths[round][p];
        Channel channel = channels[p];
        Callable<long[][]> exchange = () -> channel.exchange(frames(3, l, 1), l);
        futures.add(pool.submit(exchange));
      }
      for (Future<long[][]> f : futures) {
        f.get(10, TimeUnit.SECONDS);
      }
    }
    TrafficStats s0 = channels[0].stats();
    assertArrayEquals(new long[] {0, 8 * (5 + 3), 8 * (2 + 3)}, s0.bytesSent);
    assertArrayEquals(new long[] {0, 2, 2}, s0.framesSent);
    assertArrayEquals(new long[] {0, 8 * (1 + 3), 8 * 3}, s0.bytesReceived);
    assertArrayEquals(new long[] {0, 2, 2}, s0.framesReceived);
    assertEquals(8 * (5 + 3 + 2 + 3), s0.totalBytesSent());
    assertEquals(4, s0.totalFramesSent());
    TrafficStats s2 = channels[2].stats();
    assertArrayEquals(new long[] {8 * 3, 8 * 3, 0}, s2.bytesSent);
    assertArrayEquals(new long[] {2, 2, 0}, s2.framesSent, "empty frames count as frames");
    assertArrayEquals(new long[] {8 * (2 + 3), 8 * (1 + 3), 0}, s2.bytesReceived);
  }

  @Test
  void stats_since_subtractsAnEarlierCopy() {
    TrafficStats stats = new TrafficStats(2);
    stats.sent(1, 16);
    TrafficStats before = stats.copy();
    stats.sent(1, 40);
    stats.received(1, 8);
    TrafficStats delta = stats.since(before);
    assertArrayEquals(new long[] {0, 40}, delta.bytesSent);
    assertArrayEquals(new long[] {0, 1}, delta.framesSent);
    assertArrayEquals(new long[] {0, 8}, delta.bytesReceived);
    assertArrayEquals(new long[] {0, 16}, before.bytesSent, "the copy is independent");
  }

  @Test
  void channel_partyOutOfRange_throwsNamingTheRange() {
    InMemoryNetwork network = new InMemoryNetwork(3, LONG);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> network.channel(3));
    assertEquals("party index (3) must be in [0, 3)", e.getMessage());
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> new InMemoryNetwork(0, LONG));
    assertEquals("parties (0) must be >= 1", none.getMessage());
  }

  @Test
  void exchange_reusedBuffer_peerGetsTheWordsAsSent() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(2, LONG);
    Channel p0 = network.channel(0);
    Channel p1 = network.channel(1);
    Future<long[][]> received = pool.submit(() -> p1.exchange(new long[2][0], new int[2]));
    long[][] out = {null, {1, 2, 3, 4}};
    p0.exchange(out, new int[] {0, 2});
    out[1][0] = 99; // the engine reuses its buffers: a frame is copied when sent
    assertArrayEquals(new long[] {1, 2}, received.get(10, TimeUnit.SECONDS)[0]);
  }

  private static NetworkException networkFailure(Future<?> f) throws Exception {
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> f.get(10, TimeUnit.SECONDS));
    return assertInstanceOf(NetworkException.class, e.getCause());
  }

  /** The sparse-rounds part of the contract ({@link SparseRoundsContract}). */
  private static void sparse(SparseCheck check) throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(3, Duration.ofSeconds(20));
    List<Channel> channels = List.of(network.channel(0), network.channel(1), network.channel(2));
    SparseRoundsContract contract = new SparseRoundsContract(channels);
    try {
      check.run(contract);
    } finally {
      channels.forEach(Channel::close);
      contract.close();
    }
  }

  @FunctionalInterface
  private interface SparseCheck {
    void run(SparseRoundsContract contract) throws Exception;
  }

  @Test
  void sparseRounds_randomLinks_onlyTheCarriedFramesCross() throws Exception {
    sparse(contract -> contract.randomLinks_onlyTheCarriedFramesCross(2211, 60));
  }

  @Test
  void sparseRounds_peerOutOfTurn_failsNamingIt() throws Exception {
    sparse(contract -> contract.frameWhereNoneWasDue_failsNamingTheSender("P0"));
    sparse(contract -> contract.dueFrameLeftOut_failsNamingTheSender("P0"));
    sparse(contract -> contract.wordsInAnAddedFrame_failNamingTheSender("P0"));
  }
}
