package dev.cohort.spdz;

import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Input of {@code m} values by their owner, in one round [DPSZ12]: with a preprocessed mask ⟨r⟩
 * whose value only the owner knows, the owner broadcasts ε = x − r and every party sets ⟨x⟩ = ⟨r⟩ +
 * ε. Every party (the owner too) hashes the ε it holds into its running broadcast digest; the
 * digests are compared in the next MAC check, so an owner that sends different ε to different
 * parties is caught before any output is revealed.
 */
final class SpdzInput implements RoundProtocol {

  private final SpdzSuite suite;
  private final int owner;
  private final int m;
  private final InputMasks masks;
  private long[] epsilon;
  private Shares result;

  SpdzInput(SpdzSuite suite, int owner, long[] values, int m) {
    this.suite = suite;
    this.owner = owner;
    this.m = m;
    this.masks = suite.preprocessing.inputMasks(owner, m);
    if (suite.myId() == owner) {
      epsilon = suite.field().alloc(m);
      suite.field().sub(values, 0, masks.values(), 0, epsilon, 0, m);
    }
  }

  @Override
  public void send(int round, Outbox out) {
    if (suite.myId() == owner) {
      suite.sendToAll(Tamper.Message.INPUT, out, epsilon, m);
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (suite.myId() != owner) {
      epsilon = suite.field().alloc(m);
      suite.readElements(in, owner, epsilon, m);
    }
    suite.recordBroadcast(owner, epsilon, m);
    result = suite.sharing.addPublic(masks.shares(), epsilon, 0);
    return true;
  }

  @Override
  public Shares shares() {
    return result;
  }
}
