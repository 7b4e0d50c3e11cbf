package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Opens SPDZ sharings: every party sends its value share to every other and sums. The opened values
 * and this party's MAC shares join the values the next MAC check covers; the engine runs that check
 * before any result leaves it.
 *
 * <p>Check, then open [DPSZ12, DKL+13]: the shares leave this party only once a MAC check covering
 * every value opened and every input broadcast recorded before this opening started has passed here
 * (see {@link CheckLedger}), so that no value computed from a tampered opening is revealed. One
 * round when nothing is unchecked; else the opening waits for the check that started in its first
 * round (or the one in flight, if it covers everything) and sends in the round after it passed:
 * three rounds more. If the check fails it throws, and this opening never sends.
 *
 * <p>Opening to one receiver must not trust the receiver with unauthenticated shares: the parties
 * open ⟨x⟩ + ⟨r⟩ to everyone, with r an input mask of the receiver (uniform, so the others learn
 * nothing), the MAC check covers x + r, and the receiver subtracts r.
 */
final class SpdzOpen implements RoundProtocol {

  private final ShareExchange exchange;
  private final CheckLedger ledger;
  private final int receiver; // < 0: everyone
  private final Shares masked; // a + r when opening to one party
  private final InputMasks masks; // r of the receiver; null when opening to everyone
  private final long needs; // recorded batches a passed check must cover before the shares go
  private boolean sent;
  private long[] opened;

  /**
   * Opens {@code a} to everyone ({@code receiver} < 0), or to {@code receiver} with {@code masks},
   * {@code a.length} input masks of the receiver: then everyone opens {@code a} + r, and the
   * receiver, who alone holds the values r, subtracts them.
   */
  SpdzOpen(
      ShareExchange exchange,
      CheckLedger ledger,
      SpdzSharing sharing,
      Shares a,
      int receiver,
      InputMasks masks) {
    this.exchange = exchange;
    this.ledger = ledger;
    this.receiver = receiver;
    this.masks = masks;
    this.masked = receiver < 0 ? a : sharing.add(a, masks.shares());
    this.needs = ledger.openingStarts();
  }

  @Override
  public void send(int round, Outbox out) {
    if (ledger.mayOpen(needs)) { // decided before any protocol of this round reads: all agree
      exchange.sendToAll(out, masked.share, masked.length);
      sent = true;
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (!sent) {
      return false; // the check this opening waits for is still running
    }
    int m = masked.length;
    long[] sum = exchange.sum(in, masked.share, m);
    ledger.recordOpened(sum, masked.mac, m);
    if (receiver < 0) {
      opened = sum;
    } else if (receiver == exchange.self()) {
      Field field = exchange.field();
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
