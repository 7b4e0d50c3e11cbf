package dev.cohort.suite;

import dev.cohort.field.Field;

/**
 * Local operations of suites whose shares are evaluations of a polynomial with the secret as its
 * constant term (Shamir, and the plaintext suite as degree 0). Linear maps act on every share the
 * same way, and a public constant is the constant polynomial: every party's share is the value.
 */
public abstract class PolynomialSuite implements Suite {

  protected final Field field;
  protected final int words;
  protected final int party;
  protected final int parties;

  protected PolynomialSuite(Field field, int party, int parties) {
    this.field = field;
    this.words = field.words();
    this.party = party;
    this.parties = parties;
  }

  @Override
  public final Field field() {
    return field;
  }

  @Override
  public final int myId() {
    return party;
  }

  @Override
  public final int parties() {
    return parties;
  }

  @Override
  public Shares constant(long[] values, int length) {
    return new Shares(length, values.clone(), null);
  }

  @Override
  public Shares add(Shares a, Shares b) {
    long[] out = new long[a.length * words];
    field.add(a.share, 0, b.share, 0, out, 0, a.length);
    return new Shares(a.length, out, null);
  }

  @Override
  public Shares sub(Shares a, Shares b) {
    long[] out = new long[a.length * words];
    field.sub(a.share, 0, b.share, 0, out, 0, a.length);
    return new Shares(a.length, out, null);
  }

  @Override
  public Shares negate(Shares a) {
    long[] out = new long[a.length * words];
    field.negate(a.share, 0, out, 0, a.length);
    return new Shares(a.length, out, null);
  }

  @Override
  public Shares addConstant(Shares a, long[] c, int co) {
    long[] out = new long[a.length * words];
    field.addScalar(a.share, 0, c, co, out, 0, a.length);
    return new Shares(a.length, out, null);
  }

  @Override
  public Shares scale(Shares a, long[] c, int co) {
    long[] out = new long[a.length * words];
    field.scale(a.share, 0, c, co, out, 0, a.length);
    return new Shares(a.length, out, null);
  }

  @Override
  public Shares sum(Shares a) {
    long[] out = new long[words];
    field.sum(a.share, 0, a.length, out, 0);
    return new Shares(1, out, null);
  }
}
