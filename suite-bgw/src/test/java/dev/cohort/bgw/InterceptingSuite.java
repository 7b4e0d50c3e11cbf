package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.ForwardingProtocol;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.ForwardingSuite;
import java.util.function.UnaryOperator;

/**
 * A suite that delegates to another and lets a test see or change what passes through: the shares
 * an open sends (to tamper with them) and the shares inputs produce (to compare them).
 */
final class InterceptingSuite extends ForwardingSuite {

  interface Hooks {
    /** Replaces the shares that party {@code party} opens. */
    default Shares beforeOpen(int party, Shares shares) {
      return shares;
    }

    /** Sees the shares an input gate produced at {@code party}. */
    default void afterInput(int party, Shares shares) {}
  }

  static SuiteFactory wrap(SuiteFactory inner, Hooks hooks) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return inner.name() + "+intercepted";
      }

      @Override
      public Field field() {
        return inner.field();
      }

      @Override
      public void validate(int parties) {
        inner.validate(parties);
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new InterceptingSuite(inner.create(party, parties, prg), hooks);
      }
    };
  }

  private final Hooks hooks;

  private InterceptingSuite(Suite inner, Hooks hooks) {
    super(inner);
    this.hooks = hooks;
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    return input(owner, values, length, -1);
  }

  /** The builder's inputs come here, with their declared bits (-1: none declared). */
  @Override
  public RoundProtocol input(int owner, long[] values, int length, int bits) {
    RoundProtocol p =
        bits < 0
            ? delegate.input(owner, values, length)
            : delegate.input(owner, values, length, bits);
    return observe(
        p,
        s -> {
          hooks.afterInput(myId(), s);
          return s;
        });
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    return delegate.open(hooks.beforeOpen(myId(), a), receiver);
  }

  private static RoundProtocol observe(RoundProtocol p, UnaryOperator<Shares> onShares) {
    return new ForwardingProtocol(p) {
      @Override
      public Shares shares() {
        return onShares.apply(p.shares());
      }
    };
  }
}
