package dev.cohort.offline.mascot;

import static dev.cohort.offline.mascot.MascotPreprocessing.TAU;

import dev.cohort.field.Field;
import dev.cohort.offline.ot.PairwiseOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Shares;

/**
 * Π_Triple of [KOS16] for one party, one batch per {@link #run}: Gilboa multiplication of τ
 * candidates, combining with public random coefficients, authentication, and the sacrifice of (â,
 * b, ĉ) for (a, b, c), with every opened value MAC-checked before the triples are returned.
 *
 * <pre>
 *  round 0  OT extension (its own rounds); Gilboa corrections; commitments to three seeds
 *  round 1  open seed 0: r, r̂ ∈ F^τ per triple;  a, c, â, ĉ combined locally
 *  round 2  COPE rows of this party's shares of a, b, c, â, ĉ (and a dummy)
 *  round 3  open seed 1: the authentication check's ρ and the sacrifice's s
 *  round 4  open y (authentication check) and s·a − â;  s·c − ĉ − (s·a − â)·b claimed zero
 *  round 5-8  MAC check of everything ({@link MacChecks}, seed 2)
 * </pre>
 */
final class TripleGeneration {

  private final Session session;
  private final Field field;
  private final int words;
  private final Gilboa gilboa;
  private final PairwiseOts extension;

  TripleGeneration(Session session, Gilboa gilboa, PairwiseOts extension) {
    this.session = session;
    this.field = session.field;
    this.words = session.words;
    this.gilboa = gilboa;
    this.extension = extension;
  }

  /** One run of Π_Triple for m triples. */
  Triples run(int m) {
    long run = session.nextRun();
    JointCoins coins =
        new JointCoins(session.lockstep, session.prg, run, 3); // combine, check + sacrifice, MAC
    long[] a = session.randomValues(TAU * m);
    long[] b = session.randomValues(m);
    Gilboa.Product product = gilboa.start(extension, a, b, m, TAU, session.lockstep.out());
    coins.writeCommitments();
    Inbox in = session.lockstep.exchange();
    long[] c = product.finish(in); // read in the order written: corrections, then commitments
    coins.readCommitments(in);

    coins.writeOpening(0);
    Prg combine = coins.readOpening(0, session.lockstep.exchange());
    long[] x = combined(combine, a, b, c, m); // a, b, c, â, ĉ

    Authentication.Batch auth =
        session.authentication.start(x, 5 * m, session.everyone(), session.lockstep);
    auth.receive(session.lockstep.exchange());

    coins.writeOpening(1);
    Prg check = coins.readOpening(1, session.lockstep.exchange());
    long[] rho = auth.writeCheck(check, session.lockstep);
    long[] s = field.alloc(m);
    field.random(check, s, 0, m);
    Shares all = auth.sum(0, 5 * m);
    // ρ = s·a − â, opened
    long[] opened = field.alloc(m);
    long[] openedMacs = field.alloc(m);
    field.mul(s, 0, all.share, 0, opened, 0, m);
    field.sub(opened, 0, all.share, 3 * m, opened, 0, m);
    field.mul(s, 0, all.mac, 0, openedMacs, 0, m);
    field.sub(openedMacs, 0, all.mac, 3 * m, openedMacs, 0, m);
    session.deviation.openingShares(opened, openedMacs);
    session.lockstep.broadcast(opened, 0, m * words);
    in = session.lockstep.exchange();
    MacChecks checks = session.checks();
    auth.readCheck(rho, in, checks);
    long[] sacrifice = session.sumOpened(in, opened, m);
    checks.add(
        "MAC check of the sacrifice openings failed: a party sent a wrong share or MAC share",
        sacrifice,
        openedMacs,
        m);
    // MAC shares of s·c − ĉ − ρ·b, claimed to be zero
    long[] zero = field.alloc(m);
    long[] t = field.alloc(m);
    field.mul(s, 0, all.mac, 2 * m, zero, 0, m);
    field.sub(zero, 0, all.mac, 4 * m, zero, 0, m);
    field.mul(sacrifice, 0, all.mac, m, t, 0, m);
    field.sub(zero, 0, t, 0, zero, 0, m);
    checks.add(
        "sacrifice check failed: a triple was wrong (a party sent a wrong multiplication"
            + " correction, or altered its shares)",
        null,
        zero,
        m);
    checks.run(session.lockstep, coins, 2, run);
    return new Triples(all.slice(0, m, words), all.slice(m, m, words), all.slice(2 * m, m, words));
  }

  /**
   * (a, b, c, â, ĉ) of this party, 5m elements in that order: a = ⟨r, a⟩, c = ⟨r, c⟩, â = ⟨r̂, a⟩,
   * ĉ = ⟨r̂, c⟩ with r, r̂ ∈ F^τ per triple from the joint {@code coins}.
   */
  private long[] combined(Prg coins, long[] a, long[] b, long[] c, int m) {
    long[] r = field.alloc(2 * TAU * m);
    field.random(coins, r, 0, 2 * TAU * m);
    long[] x = field.alloc(5 * m);
    long[] product = field.alloc(TAU * m);
    System.arraycopy(b, 0, x, m * words, m * words);
    long[][] sources = {a, c, a, c};
    int[] targets = {0, 2, 3, 4};
    for (int i = 0; i < 4; i++) {
      int ro = i < 2 ? 0 : TAU * m;
      field.mul(r, ro, sources[i], 0, product, 0, TAU * m);
      for (int j = 0; j < m; j++) {
        field.sum(product, TAU * j, TAU, x, targets[i] * m + j);
      }
    }
    return x;
  }
}
