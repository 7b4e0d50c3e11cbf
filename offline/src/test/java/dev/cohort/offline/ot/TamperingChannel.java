package dev.cohort.offline.ot;

import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;

/**
 * A corrupt party's channel: before the frames of round {@code round} leave, {@code tamper} may
 * change them (and their lengths) in place. The frames the honest protocol code produced are copied
 * first, so the party's own view of what it sent stays honest.
 */
final class TamperingChannel implements Channel {

  /** Changes the outgoing frames of one round in place. */
  @FunctionalInterface
  interface Tamper {
    void apply(long[][] outgoing, int[] lengths);
  }

  private final Channel inner;
  private final int round;
  private final Tamper tamper;
  private int rounds;

  TamperingChannel(Channel inner, int round, Tamper tamper) {
    this.inner = inner;
    this.round = round;
    this.tamper = tamper;
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
    if (rounds++ != round) {
      return inner.exchange(outgoing, lengths, receive);
    }
    long[][] copies = new long[outgoing.length][];
    for (int p = 0; p < outgoing.length; p++) {
      if (outgoing[p] != null) {
        copies[p] = outgoing[p].clone();
      }
    }
    int[] newLengths = lengths.clone();
    tamper.apply(copies, newLengths);
    return inner.exchange(copies, newLengths, receive);
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
