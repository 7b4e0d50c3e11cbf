package dev.cohort.offline.mascot;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Shares;
import java.math.BigInteger;

/**
 * Random bits for one party (PROTOCOLS.md §1's square-root trick on authenticated values), and the
 * input bits of an owner made from them.
 *
 * <pre>
 *  triples and random elements r (their own runs)
 *  round 0  open d = r − a and e = r − b (Beaver), commit to the check's seed
 *  round 1  open r² = c + d·b + e·a + d·e
 *  round 2-5  MAC check of d, e and r²;  then b = (r·(r²)^((p−3)/4) + 1)/2 locally
 * </pre>
 */
final class BitGeneration {

  private final Session session;
  private final Field field;
  private final int words;
  private final int self;
  private final TripleGeneration triples;

  BitGeneration(Session session, TripleGeneration triples) {
    this.session = session;
    this.field = session.field;
    this.words = session.words;
    this.self = session.self;
    this.triples = triples;
  }

  /** m random bits from m triples and m random elements. */
  Shares run(int m) {
    Triples t = triples.run(m);
    Shares r = session.authenticatedRun(session.randomValues(m), m, session.everyone());
    long run = session.nextRun();
    JointCoins coins = new JointCoins(session.lockstep, session.prg, run, 1);
    // Beaver: d = r − a, e = r − b
    long[] de = field.alloc(2 * m);
    long[] deMacs = field.alloc(2 * m);
    field.sub(r.share, 0, t.a().share, 0, de, 0, m);
    field.sub(r.share, 0, t.b().share, 0, de, m, m);
    field.sub(r.mac, 0, t.a().mac, 0, deMacs, 0, m);
    field.sub(r.mac, 0, t.b().mac, 0, deMacs, m, m);
    session.deviation.openingShares(de, deMacs);
    session.lockstep.broadcast(de, 0, 2 * m * words);
    coins.writeCommitments();
    Inbox in = session.lockstep.exchange();
    long[] deOpen = session.sumOpened(in, de, 2 * m);
    coins.readCommitments(in);
    MacChecks checks = session.checks();
    String why = "MAC check of the random-bit openings failed: a party sent a wrong share";
    checks.add(why, deOpen, deMacs, 2 * m);
    // r² = c + d·b + e·a + d·e
    Shares square = new Shares(m, t.c().share.clone(), t.c().mac.clone());
    long[] tmp = field.alloc(m);
    long[] tmpMac = field.alloc(m);
    field.mul(deOpen, 0, t.b().share, 0, tmp, 0, m);
    field.add(square.share, 0, tmp, 0, square.share, 0, m);
    field.mul(deOpen, 0, t.b().mac, 0, tmpMac, 0, m);
    field.add(square.mac, 0, tmpMac, 0, square.mac, 0, m);
    field.mul(deOpen, m, t.a().share, 0, tmp, 0, m);
    field.add(square.share, 0, tmp, 0, square.share, 0, m);
    field.mul(deOpen, m, t.a().mac, 0, tmpMac, 0, m);
    field.add(square.mac, 0, tmpMac, 0, square.mac, 0, m);
    field.mul(deOpen, 0, deOpen, m, tmp, 0, m);
    session.addPublic(square, tmp);
    session.lockstep.broadcast(square.share, 0, m * words);
    long[] squares = session.sumOpened(session.lockstep.exchange(), square.share, m);
    checks.add(why, squares, square.mac, m);
    checks.run(session.lockstep, coins, 0, run);
    return bitsFromSquares(r, squares, m);
  }

  /** b = (r·(r²)^((p−3)/4) + 1)/2, after the openings were checked. */
  private Shares bitsFromSquares(Shares r, long[] squares, int m) {
    BigInteger exponent = field.modulus().subtract(BigInteger.valueOf(3)).shiftRight(2);
    long[] inverseRoots = field.alloc(m);
    long[] zero = field.alloc(1);
    for (int j = 0; j < m; j++) {
      if (field.equal(squares, j, zero, 0)) {
        throw new AbortException(
            "MASCOT random bits: an opened square was 0 (probability 1/p for honest parties):"
                + " start again with fresh material");
      }
      field.pow(squares, j, exponent, inverseRoots, j);
    }
    Shares bits = new Shares(m, field.alloc(m), field.alloc(m));
    field.mul(r.share, 0, inverseRoots, 0, bits.share, 0, m);
    field.mul(r.mac, 0, inverseRoots, 0, bits.mac, 0, m);
    long[] ones = field.alloc(m);
    for (int j = 0; j < m; j++) {
      field.encode(1, ones, j);
    }
    session.addPublic(bits, ones);
    long[] half = field.alloc(1);
    field.encode(2, half, 0);
    field.inverse(half, 0, half, 0);
    field.scale(bits.share, 0, half, 0, bits.share, 0, m);
    field.scale(bits.mac, 0, half, 0, bits.mac, 0, m);
    return bits;
  }

  /** Opens bit − mask (MAC-checked); returns the bits' values at the owner, null elsewhere. */
  long[] inputBits(Shares bits, InputMasks masks, int owner) {
    int m = bits.length;
    long run = session.nextRun();
    JointCoins coins = new JointCoins(session.lockstep, session.prg, run, 1);
    long[] e = field.alloc(m);
    long[] eMacs = field.alloc(m);
    field.sub(bits.share, 0, masks.shares().share, 0, e, 0, m);
    field.sub(bits.mac, 0, masks.shares().mac, 0, eMacs, 0, m);
    session.deviation.openingShares(e, eMacs);
    session.lockstep.broadcast(e, 0, m * words);
    coins.writeCommitments();
    Inbox in = session.lockstep.exchange();
    long[] opened = session.sumOpened(in, e, m);
    coins.readCommitments(in);
    MacChecks checks = session.checks();
    checks.add(
        "MAC check of the input-bit openings failed: a party sent a wrong share", opened, eMacs, m);
    checks.run(session.lockstep, coins, 0, run);
    if (owner != self) {
      return null;
    }
    long[] values = field.alloc(m);
    field.add(opened, 0, masks.values(), 0, values, 0, m);
    return values;
  }
}
