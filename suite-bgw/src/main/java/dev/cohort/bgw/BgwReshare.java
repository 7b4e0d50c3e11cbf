package dev.cohort.bgw;

import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * One round of dealing: each dealer i shares its m values with fresh degree-t polynomials q_i, and
 * every party k ends with Σ_i coefficient_i · q_i(x_k). With one dealer and no coefficients this is
 * input; with the dealers P_0..P_2t and the Lagrange coefficients at 0 it is GRR's degree
 * reduction; with t + 1 dealers of random values it is a random sharing.
 *
 * <p>Traffic: each dealer sends m elements to each of the n − 1 − t parties outside T_i; the
 * parties of T_i draw theirs from the pairwise seed.
 */
final class BgwReshare implements RoundProtocol {

  private final BgwSuite suite;
  private final int[] dealers;
  private final long[] coefficients; // packed, one per dealer; null means all ones
  private final long[] secrets; // this party's values when it is a dealer
  private final int m;
  private long[] result;

  BgwReshare(BgwSuite suite, int[] dealers, long[] coefficients, long[] secrets, int m) {
    this.suite = suite;
    this.dealers = dealers;
    this.coefficients = coefficients;
    this.secrets = secrets;
    this.m = m;
  }

  @Override
  public void send(int round, Outbox out) {
    result = suite.field().alloc(m);
    int self = suite.party();
    for (int d = 0; d < dealers.length; d++) {
      int dealer = dealers[d];
      if (dealer == self) {
        long[][] shares = suite.deal(secrets, m);
        for (int k = 0; k < shares.length; k++) {
          if (k != self && !suite.sharing.isSeeded(self, k)) {
            out.write(k, shares[k], 0, shares[k].length);
          }
        }
        accumulate(d, shares[self]);
      } else if (suite.sharing.isSeeded(dealer, self)) {
        accumulate(d, suite.seededShare(dealer, m));
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    int self = suite.party();
    long[] received = null;
    for (int d = 0; d < dealers.length; d++) {
      int dealer = dealers[d];
      if (dealer != self && !suite.sharing.isSeeded(dealer, self)) {
        if (received == null) {
          received = suite.field().alloc(m);
        }
        in.read(dealer, received, 0, received.length);
        accumulate(d, received);
      }
    }
    return true;
  }

  private void accumulate(int d, long[] share) {
    if (coefficients == null) {
      suite.field().add(result, 0, share, 0, result, 0, m);
    } else {
      suite.field().scaleAdd(share, 0, coefficients, d, result, 0, m);
    }
  }

  @Override
  public Shares shares() {
    return new Shares(m, result, null);
  }

  /** A protocol that has its shares already (PRSS): no round. */
  static RoundProtocol finished(Shares shares) {
    return new RoundProtocol() {
      @Override
      public boolean isDone() {
        return true;
      }

      @Override
      public void send(int round, Outbox out) {}

      @Override
      public boolean receive(int round, Inbox in) {
        return true;
      }

      @Override
      public Shares shares() {
        return shares;
      }
    };
  }
}
