package dev.cohort.offline.mascot;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Shares;

/**
 * Authentication of values that parties hold [KOS16, Π_[[·]]]: each owner authenticates its own
 * values x_1..x_m through {@link Cope} with every peer, so that Σ_i m_i = α·x where the owner's MAC
 * share is α_i·x − Σ t and each peer's is its q. The owner holds x as its share and every other
 * party 0; summing the sharings of all owners gives a sharing of Σ_owners x.
 *
 * <p>Check: an owner prepends a uniformly random dummy x_0, so that after the values are fixed the
 * opening y = x_0 + Σ_{h≥1} ρ_h x_h, ρ from a joint seed, reveals nothing about them; y is then
 * MAC-checked with MAC shares Σ ρ_h m_h (one group per owner in {@link MacChecks}). Inconsistent
 * COPE rows or a wrong MAC share make the check fail except with probability about 1/p.
 */
final class Authentication {

  private final Field field;
  private final int words;
  private final int self;
  private final int parties;
  private final Cope cope;
  private final Prg prg;

  Authentication(Field field, int self, int parties, Cope cope, Prg prg) {
    this.field = field;
    this.words = field.words();
    this.self = self;
    this.parties = parties;
    this.cope = cope;
    this.prg = prg;
  }

  /** One run's values of every owner: this party's MAC shares of each owner's values. */
  final class Batch {
    final int m;
    final boolean[] owners;
    final long[] values; // this party's values with the dummy at 0, or null if not an owner
    final long[][] macs; // [owner]: this party's MAC shares of owner's m + 1 values

    Batch(int m, boolean[] owners, long[] values) {
      this.m = m;
      this.owners = owners;
      this.values = values;
      this.macs = new long[parties][];
    }

    /** Reads the peers' COPE rows of this batch. */
    void receive(Inbox in) {
      for (int j = 0; j < parties; j++) {
        if (j != self && owners[j]) {
          macs[j] = cope.receive(j, m + 1, in);
        }
      }
    }

    /**
     * Opens y = x_0 + Σ ρ_h x_h of every owner (this party writes its own now; the peers' are read
     * by {@link #readCheck}) with ρ from {@code coefficients}.
     */
    long[] writeCheck(Prg coefficients, Lockstep lockstep) {
      long[] rho = field.alloc(m + 1);
      field.random(coefficients, rho, 1, m);
      field.encode(1, rho, 0);
      if (owners[self]) {
        long[] y = field.alloc(1);
        field.innerProduct(rho, 0, values, 0, m + 1, y, 0);
        lockstep.broadcast(y, 0, words);
      }
      return rho;
    }

    /** Reads every owner's y and adds it, with this party's MAC share, to {@code checks}. */
    void readCheck(long[] rho, Inbox in, MacChecks checks) {
      for (int j = 0; j < parties; j++) {
        if (!owners[j]) {
          continue;
        }
        long[] y = field.alloc(1);
        if (j == self) {
          field.innerProduct(rho, 0, values, 0, m + 1, y, 0);
        } else {
          in.read(j, y, 0, words);
        }
        long[] mu = field.alloc(1);
        field.innerProduct(rho, 0, macs[j], 0, m + 1, mu, 0);
        checks.add(
            "authentication check of "
                + PartyId.of(j)
                + "'s values failed: "
                + PartyId.of(j)
                + " sent inconsistent COPE rows, or a party altered its MAC shares",
            y,
            mu,
            1);
      }
    }

    /**
     * This party's sharing of Σ_owners x at values {@code [from, from + count)} (1-based after the
     * dummy): its own values (0 if not an owner), and the sum of its MAC shares over the owners.
     */
    Shares sum(int from, int count) {
      long[] share = field.alloc(count);
      if (owners[self]) {
        System.arraycopy(values, (1 + from) * words, share, 0, count * words);
      }
      long[] mac = field.alloc(count);
      for (int j = 0; j < parties; j++) {
        if (owners[j]) {
          field.add(mac, 0, macs[j], 1 + from, mac, 0, count);
        }
      }
      return new Shares(count, share, mac);
    }
  }

  /**
   * Starts a batch of m values per owner: if this party is an owner, writes its COPE rows for
   * {@code x} (m elements, after a fresh random dummy) to every peer. Every party calls this with
   * the same {@code m} and {@code owners}.
   */
  Batch start(long[] x, int m, boolean[] owners, Lockstep lockstep) {
    long[] values = null;
    Batch batch;
    if (owners[self]) {
      values = field.alloc(m + 1);
      field.random(prg, values, 0, 1);
      System.arraycopy(x, 0, values, words, m * words);
      batch = new Batch(m, owners, values);
      batch.macs[self] = cope.send(values, m + 1, lockstep.out());
    } else {
      batch = new Batch(m, owners, null);
    }
    return batch;
  }
}
