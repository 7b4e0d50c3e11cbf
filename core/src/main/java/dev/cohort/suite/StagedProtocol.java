package dev.cohort.suite;

/**
 * A protocol made of stages run one after another, each stage a {@link RoundProtocol} built from
 * the one before (random bits: a random element, then a multiplication, then an opening). Stages
 * that finish without communication cost no round.
 */
public abstract class StagedProtocol implements RoundProtocol {

  private RoundProtocol current;
  private int stageRound;

  /** Starts with {@code first}; call from the subclass constructor once its fields are set. */
  protected final void begin(RoundProtocol first) {
    current = skipDone(first);
  }

  /** The stage after {@code finished}, or null when the protocol is complete. */
  protected abstract RoundProtocol next(RoundProtocol finished);

  private RoundProtocol skipDone(RoundProtocol stage) {
    while (stage != null && stage.isDone()) {
      stage = next(stage);
    }
    return stage;
  }

  @Override
  public final boolean isDone() {
    return current == null;
  }

  @Override
  public final void send(int round, Outbox out) {
    current.send(stageRound, out);
  }

  /** The current stage's links. */
  @Override
  public final boolean sendsTo(int round, int peer) {
    return current.sendsTo(stageRound, peer);
  }

  @Override
  public final boolean receivesFrom(int round, int peer) {
    return current.receivesFrom(stageRound, peer);
  }

  @Override
  public final boolean receive(int round, Inbox in) {
    if (current.receive(stageRound, in)) {
      current = skipDone(next(current));
      stageRound = 0;
      return current == null;
    }
    stageRound++;
    return false;
  }
}
