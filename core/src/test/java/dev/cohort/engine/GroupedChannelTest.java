package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Groups of one party sharing its channel: each group's words reach the same group at every peer,
 * the shared channel carries one frame per peer per round whatever the groups do, a group that
 * leaves early no longer holds the others' rounds, and a peer whose groups differ, or a group that
 * gives up, fails every group.
 */
class GroupedChannelTest {

  private static final int PARTIES = 3;
  private static final int GROUPS = 3;
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  /** The words group {@code g} of party {@code from} sends party {@code to} in {@code round}. */
  private static long[] words(int from, int to, int g, int round) {
    SplittableRandom r = new SplittableRandom(((from * 31L + to) * 31 + g) * 1009 + round);
    long[] w = new long[r.nextInt(0, 40)]; // empty parts too
    for (int i = 0; i < w.length; i++) {
      w[i] = r.nextLong();
    }
    return w;
  }

  /** Group g runs {@code rounds[g]} rounds, checking what each peer's group g sent it. */
  private static int runGroup(Channel c, int g, int rounds) {
    int self = c.myId();
    for (int round = 0; round < rounds; round++) {
      long[][] out = new long[PARTIES][];
      int[] lengths = new int[PARTIES];
      for (int p = 0; p < PARTIES; p++) {
        if (p != self) {
          long[] w = words(self, p, g, round);
          out[p] = new long[w.length + 5]; // a buffer longer than its message, as an outbox's
          System.arraycopy(w, 0, out[p], 0, w.length);
          lengths[p] = w.length;
        }
      }
      long[][] in = c.exchange(out, lengths);
      for (int p = 0; p < PARTIES; p++) {
        if (p == self) {
          assertNull(in[p]);
        } else {
          assertArrayEquals(words(p, self, g, round), in[p], "P" + p + " group " + g);
        }
      }
    }
    return rounds;
  }

  @Test
  void groupsOfDifferentLengths_eachGetsItsPeersWords_oneFramePerPeerPerRound() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(PARTIES, TIMEOUT);
    int[] rounds = {7, 2, 5}; // group 1 leaves after 2 rounds, group 2 after 5
    List<Future<Integer>> runs = new ArrayList<>();
    GroupedChannel[] grouped = new GroupedChannel[PARTIES];
    Channel[] channels = new Channel[PARTIES];
    for (int p = 0; p < PARTIES; p++) {
      channels[p] = network.channel(p);
      grouped[p] = new GroupedChannel(channels[p], GROUPS);
      grouped[p].open(GROUPS);
      for (int g = 0; g < GROUPS; g++) {
        Channel c = grouped[p].group(g);
        GroupedChannel gc = grouped[p];
        int group = g;
        runs.add(
            pool.submit(
                () -> {
                  try {
                    return runGroup(c, group, rounds[group]);
                  } finally {
                    gc.leave(group);
                  }
                }));
      }
    }
    for (Future<Integer> f : runs) {
      f.get();
    }
    for (int p = 0; p < PARTIES; p++) {
      assertEquals(7, grouped[p].exchanges());
      for (int q = 0; q < PARTIES; q++) {
        assertEquals(q == p ? 0 : 7, channels[p].stats().framesSent[q], "P" + p + "→P" + q);
      }
    }
  }

  @Test
  void peerRunsOtherGroups_roundAbortsNamingIt() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(PARTIES, TIMEOUT);
    List<Future<Integer>> runs = new ArrayList<>();
    for (int p = 0; p < PARTIES; p++) {
      GroupedChannel gc = new GroupedChannel(network.channel(p), GROUPS);
      int count = p == 2 ? 2 : 3; // P2 runs two groups, the others three
      gc.open(count);
      for (int g = 0; g < count; g++) {
        Channel c = gc.group(g);
        int group = g;
        runs.add(
            pool.submit(
                () -> {
                  try {
                    return runGroup(c, group, 3);
                  } finally {
                    gc.leave(group);
                  }
                }));
      }
    }
    for (int i = 0; i < 3; i++) { // P0's groups
      Exception e =
          org.junit.jupiter.api.Assertions.assertThrows(Exception.class, runs.get(i)::get);
      AbortException a = assertInstanceOf(AbortException.class, e.getCause());
      assertTrue(a.getMessage().startsWith("P2 ran other session groups"), a.getMessage());
    }
  }

  @Test
  void groupGivesUp_theOthersFailAndThePeersHearOnce() throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(PARTIES, TIMEOUT);
    GroupedChannel gc = new GroupedChannel(network.channel(0), GROUPS);
    gc.open(GROUPS);
    List<Future<Integer>> waiting = new ArrayList<>();
    for (int g = 1; g < GROUPS; g++) {
      Channel c = gc.group(g);
      int group = g;
      waiting.add(pool.submit(() -> runGroup(c, group, 1)));
    }
    gc.group(0).abort("session 12 could not be built");
    for (Future<Integer> f : waiting) {
      Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, f::get);
      assertInstanceOf(GroupedChannel.GroupAbort.class, e.getCause());
      assertEquals(
          "session group 0 of this party failed: session 12 could not be built",
          e.getCause().getMessage());
    }
    // a peer's next round fails naming P0's reason, not a timeout
    Exception e =
        org.junit.jupiter.api.Assertions.assertThrows(
            Exception.class,
            () -> network.channel(1).exchange(new long[PARTIES][0], new int[PARTIES]));
    assertTrue(e.getMessage().contains("session 12 could not be built"), e.getMessage());
  }

  @Test
  void lastGroupLeaves_theRoundItCompletesFails_leaveThrowsAndTheWaitingGroupFails()
      throws Exception {
    InMemoryNetwork network = new InMemoryNetwork(PARTIES, TIMEOUT);
    network.channel(1).abort("P1 stops");
    CountDownLatch handedIn = new CountDownLatch(1);
    GroupedChannel gc = new GroupedChannel(network.channel(0), 2, g -> handedIn.countDown());
    gc.open(2);
    Channel c = gc.group(1);
    Future<Integer> waiting = pool.submit(() -> runGroup(c, 1, 1));
    handedIn.await(); // group 1 has handed in its round and waits for group 0
    Exception left =
        org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> gc.leave(0));
    assertTrue(left.getMessage().contains("P1 stops"), left.getMessage());
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, waiting::get);
    assertEquals(left, e.getCause());
  }
}
