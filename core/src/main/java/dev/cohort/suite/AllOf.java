package dev.cohort.suite;

import java.util.List;

/**
 * Several protocols run side by side in the same rounds: each writes and reads its own messages, in
 * list order, every round until it is done; the whole is done when all are.
 */
public final class AllOf implements RoundProtocol {

  private final List<RoundProtocol> parts;
  private final boolean[] done;
  private final int[] rounds;
  private int remaining;

  public AllOf(List<RoundProtocol> parts) {
    this.parts = parts;
    this.done = new boolean[parts.size()];
    this.rounds = new int[parts.size()];
    for (int i = 0; i < done.length; i++) {
      done[i] = parts.get(i).isDone();
      if (!done[i]) {
        remaining++;
      }
    }
  }

  public List<RoundProtocol> parts() {
    return parts;
  }

  @Override
  public boolean isDone() {
    return remaining == 0;
  }

  @Override
  public void send(int round, Outbox out) {
    for (int i = 0; i < done.length; i++) {
      if (!done[i]) {
        parts.get(i).send(rounds[i], out);
      }
    }
  }

  /** The links of any part still running. */
  @Override
  public boolean sendsTo(int round, int peer) {
    for (int i = 0; i < done.length; i++) {
      if (!done[i] && parts.get(i).sendsTo(rounds[i], peer)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean receivesFrom(int round, int peer) {
    for (int i = 0; i < done.length; i++) {
      if (!done[i] && parts.get(i).receivesFrom(rounds[i], peer)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean receive(int round, Inbox in) {
    for (int i = 0; i < done.length; i++) {
      if (!done[i]) {
        if (parts.get(i).receive(rounds[i]++, in)) {
          done[i] = true;
          remaining--;
        }
      }
    }
    return remaining == 0;
  }
}
