package dev.cohort.bgw;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.util.Arrays;

/**
 * Opens Shamir sharings to every party or to one, in one round. The receiver interpolates the
 * secret from the shares of P_0..P_t and checks every other share against the polynomial they
 * define: since n ≥ t + 2, a sharing that is not of degree t is detected and the open aborts with
 * an error, never a silent wrong value.
 */
final class BgwOpen implements RoundProtocol {

  private final BgwSuite suite;
  private final long[] share;
  private final int m;
  private final int receiver; // < 0: everyone
  private long[] opened;

  BgwOpen(BgwSuite suite, long[] share, int m, int receiver) {
    this.suite = suite;
    this.share = share;
    this.m = m;
    this.receiver = receiver;
  }

  private boolean receives(int party) {
    return receiver < 0 || receiver == party;
  }

  /** Every party sends its shares to the receivers. */
  @Override
  public boolean sendsTo(int round, int peer) {
    return receives(peer);
  }

  /** A receiver hears from every party, the others from none. */
  @Override
  public boolean receivesFrom(int round, int peer) {
    return receives(suite.myId());
  }

  @Override
  public void send(int round, Outbox out) {
    int self = suite.myId();
    for (int k = 0; k < suite.parties(); k++) {
      if (k != self && receives(k)) {
        out.write(k, share, 0, share.length);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    int self = suite.myId();
    if (!receives(self)) {
      return true;
    }
    Field field = suite.field();
    int n = suite.parties();
    long[][] shares = new long[n][];
    for (int k = 0; k < n; k++) {
      if (k == self) {
        shares[k] = share;
      } else {
        shares[k] = field.alloc(m);
        in.read(k, shares[k], 0, shares[k].length);
      }
    }
    ShamirSharing sharing = suite.sharing;
    int t = sharing.threshold;
    opened = combine(field, shares, sharing.reconstruct, t + 1);
    for (int j = t + 1; j < n; j++) {
      long[] predicted = combine(field, shares, sharing.check[j - t - 1], t + 1);
      int mismatch = Arrays.mismatch(predicted, shares[j]);
      if (mismatch >= 0) {
        throw new AbortException(
            "BGW open failed its consistency check: the share of "
                + PartyId.of(j)
                + " (element "
                + mismatch / field.words()
                + " of "
                + m
                + ") disagrees with the degree-"
                + t
                + " polynomial through the shares of P0..P"
                + t
                + "; a party sent a wrong share or the parties ran different computations");
      }
    }
    return true;
  }

  private long[] combine(Field field, long[][] shares, long[] coefficients, int count) {
    long[] out = field.alloc(m);
    for (int i = 0; i < count; i++) {
      field.scaleAdd(shares[i], 0, coefficients, i, out, 0, m);
    }
    return out;
  }

  @Override
  public long[] opened() {
    return opened;
  }
}
