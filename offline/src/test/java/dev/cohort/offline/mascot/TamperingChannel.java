package dev.cohort.offline.mascot;

import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;

/**
 * A corrupt party's channel: in round {@code round} (counting this channel's exchanges from 0) it
 * flips bit 1 of the words {@code words} of the frame to every peer (or to one peer only) before
 * sending it.
 */
final class TamperingChannel implements Channel {

  private final Channel inner;
  private final int round;
  private final int[] words;
  private final int onlyTo; // -1: every peer
  private int exchanges;

  TamperingChannel(Channel inner, int round, int[] words) {
    this(inner, round, words, -1);
  }

  /** Tampers only with the frame to {@code onlyTo}: a cheat that one honest party alone sees. */
  TamperingChannel(Channel inner, int round, int[] words, int onlyTo) {
    this.inner = inner;
    this.round = round;
    this.words = words;
    this.onlyTo = onlyTo;
  }

  @Override
  public int myId() {
    return inner.myId();
  }

  @Override
  public int parties() {
    return inner.parties();
  }

  @Override
  public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
    if (exchanges++ == round) {
      long[][] altered = new long[outgoing.length][];
      for (int p = 0; p < outgoing.length; p++) {
        if (outgoing[p] != null && lengths[p] >= 0) {
          altered[p] = java.util.Arrays.copyOf(outgoing[p], lengths[p]);
          for (int w : onlyTo < 0 || onlyTo == p ? words : new int[0]) {
            altered[p][w] ^= 2;
          }
        }
      }
      return inner.exchange(altered, lengths, receive);
    }
    return inner.exchange(outgoing, lengths, receive);
  }

  @Override
  public TrafficStats stats() {
    return inner.stats();
  }

  @Override
  public void abort(String reason) {
    inner.abort(reason);
  }

  @Override
  public void close() {
    inner.close();
  }
}
