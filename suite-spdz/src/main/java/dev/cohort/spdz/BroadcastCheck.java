package dev.cohort.spdz;

import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;

/**
 * The check an opening waits for when nothing but input broadcasts is unchecked: the comparison of
 * the broadcast digests of {@link MacCheck} without its MAC part, in one round. Every party sends
 * its running digest of the input broadcasts to every other and aborts unless all equal its own (an
 * input owner sent different values to different parties). No opened value is covered, so no seed
 * is opened and no σ is sent: the seed committed to for the next {@link MacCheck} stays unrevealed
 * and keeps its number.
 *
 * <p>The invariant: it passes only if every party received the same input broadcasts as this one.
 * It saves the first opening after the inputs (the masked value of a comparison of inputs, an
 * output of a linear function of them) two of a MAC check's three rounds.
 */
final class BroadcastCheck implements RoundProtocol {

  private final CheckLedger ledger;
  private final int self;
  private final int parties;
  private final long index; // the number of the next MAC check, for the abort message
  private final long[] digest;
  private final long[][] digests;

  /**
   * The check {@code check} that {@link CheckLedger#start} started, at {@code self} of {@code
   * parties}.
   */
  BroadcastCheck(CheckLedger ledger, CheckLedger.Check check, int self, int parties) {
    this.ledger = ledger;
    this.self = self;
    this.parties = parties;
    this.index = check.index();
    this.digest = check.digest();
    this.digests = new long[parties][];
  }

  @Override
  public void send(int round, Outbox out) {
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        out.write(k, digest, 0, Hashing.DIGEST_WORDS);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    digests[self] = digest;
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        digests[k] = new long[Hashing.DIGEST_WORDS];
        in.read(k, digests[k], 0, Hashing.DIGEST_WORDS);
      }
    }
    MacCheck.compareDigests(digests, digest, index, self);
    ledger.checkPassed();
    return true;
  }
}
