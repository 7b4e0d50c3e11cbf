package dev.cohort.offline.mascot;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Shares;
import java.util.Arrays;

/**
 * What every protocol run of one party's {@link MascotPreprocessing} shares: the field, the rounds
 * over its channel, its PRG and MAC key share, the authentication of its values, and the number of
 * the next run (which binds commitments and seeds to their run). Also the generic run: values of
 * some owners authenticated and checked.
 */
final class Session {

  final Field field;
  final int words;
  final int self;
  final int parties;
  final Lockstep lockstep;
  final Prg prg;
  final long[] alpha;
  final Authentication authentication;
  final Deviation deviation;
  private long runs;

  Session(
      Lockstep lockstep,
      Field field,
      Prg prg,
      long[] alpha,
      Authentication authentication,
      Deviation deviation) {
    this.field = field;
    this.words = field.words();
    this.self = lockstep.self();
    this.parties = lockstep.parties();
    this.lockstep = lockstep;
    this.prg = prg;
    this.alpha = alpha;
    this.authentication = authentication;
    this.deviation = deviation;
  }

  /** The number of a new run. */
  long nextRun() {
    return runs++;
  }

  /** A MAC check of one run's openings under this party's key share. */
  MacChecks checks() {
    return new MacChecks(field, alpha, prg);
  }

  /**
   * One run authenticating the values {@code x} of every owner (m each; null at a non-owner) and
   * checking them; this party's sharing of their sum.
   */
  Shares authenticatedRun(long[] x, int m, boolean[] owners) {
    long run = nextRun();
    JointCoins coins = new JointCoins(lockstep, prg, run, 2); // check, MAC
    Authentication.Batch auth = authentication.start(x, m, owners, lockstep);
    coins.writeCommitments();
    Inbox in = lockstep.exchange();
    auth.receive(in);
    coins.readCommitments(in);
    coins.writeOpening(0);
    Prg check = coins.readOpening(0, lockstep.exchange());
    long[] rho = auth.writeCheck(check, lockstep);
    Shares shares = auth.sum(0, m);
    in = lockstep.exchange();
    MacChecks checks = checks();
    auth.readCheck(rho, in, checks);
    checks.run(lockstep, coins, 1, run);
    return shares;
  }

  /** Adds public values: to party 0's share, and α_i·v to every MAC share. */
  void addPublic(Shares x, long[] v) {
    if (self == 0) {
      field.add(x.share, 0, v, 0, x.share, 0, x.length);
    }
    field.scaleAdd(v, 0, alpha, 0, x.mac, 0, x.length);
  }

  /** Σ of every party's shares read from {@code in} and this party's {@code own}. */
  long[] sumOpened(Inbox in, long[] own, int m) {
    long[] sum = own.clone();
    long[] peer = field.alloc(m);
    for (int q = 0; q < parties; q++) {
      if (q != self) {
        in.read(q, peer, 0, m * words);
        field.add(sum, 0, peer, 0, sum, 0, m);
      }
    }
    return sum;
  }

  long[] randomValues(int m) {
    long[] x = field.alloc(m);
    field.random(prg, x, 0, m);
    return x;
  }

  boolean[] everyone() {
    boolean[] all = new boolean[parties];
    Arrays.fill(all, true);
    return all;
  }
}
