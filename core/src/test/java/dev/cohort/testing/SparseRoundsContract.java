package dev.cohort.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The part of the {@link Channel} contract about rounds that leave out frames, run against the
 * connected channels of any transport (one per party, in party order): only the frames a round
 * carries cross, each to the round that takes it; an idle link carries an empty frame every third
 * round ({@link LinkFrames}); and a peer that sends a frame where none was due, leaves out one that
 * was, or puts words into a frame the channel added fails the round naming it.
 */
public final class SparseRoundsContract {

  private static final String DIFFERENT =
      ": the parties are running different computations or versions";

  private final List<Channel> channels;
  private final int parties;

  /** The contract for {@code channels}, connected, party p's at index p. */
  public SparseRoundsContract(List<Channel> channels) {
    this.channels = channels;
    this.parties = channels.size();
  }

  /**
   * {@code rounds} rounds in which each link carries words with probability one half (seeded): the
   * words arrive as sent at the round that takes them, the others get null, and the frames counted
   * are those of the rule.
   */
  public void randomLinks_onlyTheCarriedFramesCross(long seed, int rounds) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    boolean[][][] carries = new boolean[rounds][parties][parties];
    for (boolean[][] round : carries) {
      for (int from = 0; from < parties; from++) {
        for (int to = 0; to < parties; to++) {
          round[from][to] = from != to && random.nextBoolean();
        }
      }
    }
    List<TrafficStats> before = new ArrayList<>();
    for (Channel c : channels) {
      before.add(c.stats().copy());
    }
    for (int r = 0; r < rounds; r++) {
      boolean[][] links = carries[r];
      int round = r;
      List<Object> outcomes =
          runEach(
              p -> {
                long[][] out = new long[parties][];
                int[] lengths = new int[parties];
                boolean[] receive = new boolean[parties];
                for (int q = 0; q < parties; q++) {
                  out[q] = words(round, p, q);
                  lengths[q] = links[p][q] ? out[q].length : Channel.NO_FRAME;
                  receive[q] = links[q][p];
                }
                return channels.get(p).exchange(out, lengths, receive);
              });
      for (int p = 0; p < parties; p++) {
        long[][] in = (long[][]) outcomes.get(p);
        for (int q = 0; q < parties; q++) {
          if (q != p && links[q][p]) {
            assertArrayEquals(words(round, q, p), in[q], "round " + r + ", P" + q + " -> P" + p);
          } else {
            assertNull(in[q], "round " + r + ": nothing taken from P" + q + " at P" + p);
          }
        }
      }
    }
    for (int p = 0; p < parties; p++) {
      TrafficStats traffic = channels.get(p).stats().since(before.get(p));
      assertArrayEquals(LinkFrames.sent(p, 0, carries, 1), traffic.framesSent, "frames from P" + p);
    }
  }

  /**
   * P0 sends P1 a frame in round 0, in which P1 takes none from it: P1 fails in round 1, when it
   * takes P0's frame, naming P0 ({@code p0}: P0 as this transport names it).
   */
  public void frameWhereNoneWasDue_failsNamingTheSender(String p0) throws Exception {
    List<Object> first = runEach(p -> exchange(p, p == 1 ? 0 : -1));
    assertNull(((long[][]) first.get(1))[0], "P1 took nothing from P0");
    List<Object> second = runEach(p -> exchange(p, -1));
    assertFailure(
        second.get(1),
        p0 + " sent a frame for round 0, in which this party expected none from it" + DIFFERENT);
  }

  /**
   * P0 leaves out its frame to P1 in round 0, in which P1 takes one: P1 fails when P0's frame of
   * round 1 comes instead, naming P0.
   */
  public void dueFrameLeftOut_failsNamingTheSender(String p0) throws Exception {
    List<Future<Object>> first = startEach(p -> p == 0 ? leaveOut(1) : exchange(p, -1));
    assertInstanceOf(long[][].class, outcome(first.get(0)));
    assertInstanceOf(long[][].class, outcome(first.get(2)));
    long[][] out = {{}, {0, 1}, {}};
    int[] lengths = {0, 2, Channel.NO_FRAME};
    assertInstanceOf( // P0's round 1: a frame to P1 only, taking none
        long[][].class,
        outcome(start(() -> channels.get(0).exchange(out, lengths, new boolean[3]))));
    assertFailure(
        outcome(first.get(1)),
        p0 + " sent no frame for round 0 (its next is for round 1)" + DIFFERENT);
  }

  /**
   * P1 takes nothing from P0 for three rounds, so the channel takes an empty frame from it in the
   * third; P0 sends words in that round: P1 fails naming it.
   */
  public void wordsInAnAddedFrame_failNamingTheSender(String p0) throws Exception {
    for (int r = 0; r < 2; r++) {
      runEach(p -> p == 0 ? leaveOut(1) : exchange(p, p == 1 ? 0 : -1));
    }
    List<Object> third = runEach(p -> exchange(p, p == 1 ? 0 : -1));
    assertFailure(
        third.get(1),
        p0 + " sent 2 words in round 2, in which this party expected none from it" + DIFFERENT);
  }

  /** Party p's round with two words to every peer, taking a frame from all but {@code skip}. */
  private long[][] exchange(int p, int skip) {
    long[][] out = new long[parties][];
    boolean[] receive = new boolean[parties];
    int[] lengths = new int[parties];
    for (int q = 0; q < parties; q++) {
      out[q] = new long[] {p, q};
      lengths[q] = 2;
      receive[q] = q != skip;
    }
    return channels.get(p).exchange(out, lengths, receive);
  }

  /** P0's round with no frame to {@code peer}, two words to the others, taking every frame. */
  private long[][] leaveOut(int peer) {
    long[][] out = new long[parties][];
    int[] lengths = new int[parties];
    for (int q = 0; q < parties; q++) {
      out[q] = new long[] {0, q};
      lengths[q] = q == peer ? Channel.NO_FRAME : 2;
    }
    return channels.get(0).exchange(out, lengths, null);
  }

  private static void assertFailure(Object outcome, String message) {
    NetworkException e = assertInstanceOf(NetworkException.class, outcome);
    assertTrue(
        e.getMessage().equals(message) || e.getMessage().equals(message + "; connection closed"),
        e.getMessage());
  }

  private static long[] words(int round, int from, int to) {
    int n = (round + 2 * from + 3 * to) % 4; // 0 to 3 words: an empty frame is a frame too
    long[] w = new long[n];
    for (int i = 0; i < n; i++) {
      w[i] = round * 1_000_000L + from * 10_000L + to * 100L + i;
    }
    return w;
  }

  /** What each party's round ended in: its frames, or the exception it threw. */
  private List<Object> runEach(Round round) throws Exception {
    List<Future<Object>> futures = startEach(round);
    List<Object> outcomes = new ArrayList<>();
    for (Future<Object> f : futures) {
      outcomes.add(outcome(f));
    }
    return outcomes;
  }

  private List<Future<Object>> startEach(Round round) {
    List<Future<Object>> futures = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      int party = p;
      futures.add(start(() -> round.run(party)));
    }
    return futures;
  }

  private final ExecutorService pool = Executors.newCachedThreadPool();

  private Future<Object> start(java.util.concurrent.Callable<Object> task) {
    return pool.submit(
        () -> {
          try {
            return task.call();
          } catch (RuntimeException e) {
            return e;
          }
        });
  }

  private static Object outcome(Future<Object> f)
      throws InterruptedException, ExecutionException, TimeoutException {
    return f.get(30, TimeUnit.SECONDS);
  }

  /** Stops the threads of the contract's rounds. */
  public void close() {
    pool.shutdownNow();
  }

  /** One party's part of a round. */
  @FunctionalInterface
  private interface Round {
    Object run(int party);
  }
}
