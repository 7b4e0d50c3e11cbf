package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Opens SPDZ sharings in one round: every party sends its value share to every other and sums. The
 * opened values and this party's MAC shares join the values the next MAC check covers; the engine
 * runs that check before any result leaves it.
 *
 * <p>Opening to one receiver must not trust the receiver with unauthenticated shares: the parties
 * open ⟨x⟩ + ⟨r⟩ to everyone, with r an input mask of the receiver (uniform, so the others learn
 * nothing), the MAC check covers x + r, and the receiver subtracts r.
 */
final class SpdzOpen implements RoundProtocol {

  private final SpdzSuite suite;
  private final int receiver; // < 0: everyone
  private final Shares masked;
  private final InputMasks masks; // null when opening to everyone
  private long[] opened;

  SpdzOpen(SpdzSuite suite, Shares a, int receiver) {
    this.suite = suite;
    this.receiver = receiver;
    if (receiver < 0) {
      masks = null;
      masked = a;
    } else {
      masks = suite.preprocessing.inputMasks(receiver, a.length);
      masked = suite.sharing.add(a, masks.shares());
    }
  }

  @Override
  public void send(int round, Outbox out) {
    suite.sendToAll(Tamper.Message.OPEN, out, masked.share, masked.length);
  }

  @Override
  public boolean receive(int round, Inbox in) {
    int m = masked.length;
    long[] sum = suite.sumShares(in, masked.share, m);
    suite.recordOpened(sum, masked.mac, m);
    if (receiver < 0) {
      opened = sum;
    } else if (receiver == suite.party()) {
      Field field = suite.field();
      opened = field.alloc(m);
      field.sub(sum, 0, masks.values(), 0, opened, 0, m);
    }
    return true;
  }

  @Override
  public long[] opened() {
    return opened;
  }
}
