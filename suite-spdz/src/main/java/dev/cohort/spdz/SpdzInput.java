package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.Shares;

/**
 * Input of {@code m} values by their owner, in one round [DPSZ12]: with a preprocessed mask ⟨r⟩
 * whose value only the owner knows, the owner broadcasts ε = x − r and every party sets ⟨x⟩ = ⟨r⟩ +
 * ε. Every party (the owner too) hashes the ε it holds into its running broadcast digest; the
 * digests are compared in the next MAC check, so an owner that sends different ε to different
 * parties is caught before any output is revealed.
 */
final class SpdzInput implements OwnerBroadcast {

  private final ShareExchange exchange;
  private final CheckLedger ledger;
  private final SpdzSharing sharing;
  private final int owner;
  private final int m;
  private final InputMasks masks;
  private long[] epsilon;
  private Shares result;

  /**
   * The input of {@code values} ({@code m} packed elements at the owner; null elsewhere) by {@code
   * owner} through {@code masks}, {@code m} of its input masks.
   */
  SpdzInput(
      ShareExchange exchange,
      CheckLedger ledger,
      SpdzSharing sharing,
      InputMasks masks,
      int owner,
      long[] values) {
    this.exchange = exchange;
    this.ledger = ledger;
    this.sharing = sharing;
    this.owner = owner;
    this.m = masks.shares().length;
    this.masks = masks;
    if (exchange.self() == owner) {
      Field field = exchange.field();
      epsilon = field.alloc(m);
      field.sub(values, 0, masks.values(), 0, epsilon, 0, m);
    }
  }

  @Override
  public int owner() {
    return owner;
  }

  @Override
  public int self() {
    return exchange.self();
  }

  @Override
  public void send(int round, Outbox out) {
    if (exchange.self() == owner) {
      exchange.sendToAll(out, epsilon, m);
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (exchange.self() != owner) {
      epsilon = exchange.field().alloc(m);
      exchange.read(in, owner, epsilon, m);
    }
    ledger.recordBroadcast(owner, epsilon, m);
    result = sharing.addPublic(masks.shares(), epsilon, 0);
    return true;
  }

  @Override
  public Shares shares() {
    return result;
  }
}
