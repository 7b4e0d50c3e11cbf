package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;

/**
 * Multiplication with Beaver triples, one round [DPSZ12]: with a triple (⟨a⟩, ⟨b⟩, ⟨c⟩), c = ab,
 * open d = x − a and e = y − b (both in the same frame) and set ⟨z⟩ = ⟨c⟩ + d·⟨b⟩ + e·⟨a⟩ + d·e.
 * The opened d and e, with this party's MAC shares of them, join the values the next MAC check
 * covers.
 *
 * <p>The opening is one packed column of 2m elements: d at elements [0, m), e at [m, 2m).
 */
final class BeaverMultiply implements RoundProtocol {

  private final SpdzSuite suite;
  private final Field field;
  private final int m;
  private final Triples triple;
  private final long[] de; // this party's shares of d and e, then the opened d and e
  private final long[] deMac;
  private Shares result;

  BeaverMultiply(SpdzSuite suite, Shares x, Shares y) {
    this.suite = suite;
    this.field = suite.field();
    this.m = x.length;
    this.triple = suite.preprocessing.triples(m);
    this.de = field.alloc(2 * m);
    this.deMac = field.alloc(2 * m);
    field.sub(x.share, 0, triple.a().share, 0, de, 0, m);
    field.sub(y.share, 0, triple.b().share, 0, de, m, m);
    field.sub(x.mac, 0, triple.a().mac, 0, deMac, 0, m);
    field.sub(y.mac, 0, triple.b().mac, 0, deMac, m, m);
  }

  @Override
  public void send(int round, Outbox out) {
    suite.sendToAll(Tamper.Message.MULTIPLY, out, de, 2 * m);
  }

  @Override
  public boolean receive(int round, Inbox in) {
    long[] opened = suite.sumShares(in, de, 2 * m);
    suite.recordOpened(opened, deMac, 2 * m);
    // z = c + d·b + e·a, on both columns; then + d·e as a public vector.
    Shares a = triple.a();
    Shares b = triple.b();
    Shares c = triple.c();
    long[] share = c.share.clone();
    long[] mac = c.mac.clone();
    long[] t = field.alloc(m);
    field.mul(opened, 0, b.share, 0, t, 0, m);
    field.add(share, 0, t, 0, share, 0, m);
    field.mul(opened, m, a.share, 0, t, 0, m);
    field.add(share, 0, t, 0, share, 0, m);
    field.mul(opened, 0, b.mac, 0, t, 0, m);
    field.add(mac, 0, t, 0, mac, 0, m);
    field.mul(opened, m, a.mac, 0, t, 0, m);
    field.add(mac, 0, t, 0, mac, 0, m);
    field.mul(opened, 0, opened, m, t, 0, m);
    result = suite.sharing.addPublic(new Shares(m, share, mac), t, 0);
    return true;
  }

  @Override
  public Shares shares() {
    return result;
  }
}
