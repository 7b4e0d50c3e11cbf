package dev.cohort.testing;

/**
 * How many frames a party sends each peer in a run, worked out from the rule of the channel
 * contract (written here from the rule, not from the channel's code): a round sends a frame on
 * every link that carries words, and a link left without a frame for two rounds in a row carries an
 * empty one in the next.
 */
public final class LinkFrames {

  private LinkFrames() {}

  /**
   * Frames party {@code from} sends each peer in {@code setup} rounds with a frame on every link,
   * followed by {@code repeats} times the rounds of {@code carries}, where {@code
   * carries[r][from][to]} says whether round r carries words from {@code from} to {@code to}.
   */
  public static long[] sent(int from, long setup, boolean[][][] carries, long repeats) {
    int parties = carries[0].length;
    long[] frames = new long[parties];
    for (int to = 0; to < parties; to++) {
      if (to == from) {
        continue;
      }
      frames[to] = setup;
      int quiet = 0;
      for (long i = 0; i < repeats; i++) {
        for (boolean[][] round : carries) {
          if (round[from][to] || quiet == 2) {
            frames[to]++;
            quiet = 0;
          } else {
            quiet++;
          }
        }
      }
    }
    return frames;
  }

  /**
   * The links of a BGW dealing round at {@code n} parties and threshold {@code t} with {@code
   * dealers}: each dealer d sends its shares to the parties outside its seeded set {d + 1, ..., d +
   * t} (mod n), which draw theirs from pairwise seeds (PROTOCOLS.md).
   */
  public static boolean[][] bgwDealing(int n, int t, int... dealers) {
    boolean[][] links = new boolean[n][n];
    for (int d : dealers) {
      for (int k = 0; k < n; k++) {
        int distance = Math.floorMod(k - d, n);
        links[d][k] = distance > t;
      }
    }
    return links;
  }

  /** The links of an opening of Shamir shares to {@code receiver} (-1: to every party). */
  public static boolean[][] opening(int n, int receiver) {
    boolean[][] links = new boolean[n][n];
    for (int from = 0; from < n; from++) {
      for (int to = 0; to < n; to++) {
        links[from][to] = from != to && (receiver < 0 || to == receiver);
      }
    }
    return links;
  }
}
