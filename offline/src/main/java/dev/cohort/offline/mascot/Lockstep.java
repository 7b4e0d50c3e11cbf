package dev.cohort.offline.mascot;

import dev.cohort.net.Channel;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;

/**
 * The rounds of the offline phase over one {@link Channel}: everything written to {@link #out()}
 * leaves as one frame per peer at the next {@link #exchange()}, and the frames received are read in
 * the order the peers wrote them. A frame left partly unread is a peer running another protocol (an
 * abort naming it).
 */
final class Lockstep {

  private final Channel channel;
  private final int self;
  private final int parties;
  private final Outbox out;
  private final Inbox in;
  private int round;

  Lockstep(Channel channel) {
    this.channel = channel;
    this.self = channel.myId();
    this.parties = channel.parties();
    this.out = new Outbox(self, parties);
    this.in = new Inbox(parties);
  }

  int self() {
    return self;
  }

  int parties() {
    return parties;
  }

  Channel channel() {
    return channel;
  }

  /** The frames of the coming round. */
  Outbox out() {
    return out;
  }

  /** Writes {@code n} words of {@code src} from {@code off} to every peer. */
  void broadcast(long[] src, int off, int n) {
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        out.write(p, src, off, n);
      }
    }
  }

  /** Sends this round's frames and returns the peers' frames of the same round. */
  Inbox exchange() {
    if (round > 0) {
      in.checkFullyRead();
    }
    long[][] frames = new long[parties][];
    int[] lengths = new int[parties];
    for (int p = 0; p < parties; p++) {
      if (p != self) {
        frames[p] = out.buffer(p);
        lengths[p] = out.length(p);
      }
    }
    long[][] received = channel.exchange(frames, lengths);
    out.clear();
    in.reset(round++, received);
    return in;
  }

  /** Checks that the last round's frames were read to their ends. */
  void finish() {
    if (round > 0) {
      in.checkFullyRead();
    }
  }
}
