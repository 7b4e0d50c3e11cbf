package dev.cohort.testing;

import dev.cohort.field.Field;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;

/**
 * A suite that forwards every call to another: the base of the test decorators that change one gate
 * and keep the rest (a corrupt party's suite, a gate slowed down, instrumentation). Test code only,
 * published in core's test-jar: a production suite is never wrapped.
 */
public abstract class ForwardingSuite implements Suite {

  protected final Suite delegate;

  protected ForwardingSuite(Suite delegate) {
    this.delegate = delegate;
  }

  @Override
  public Field field() {
    return delegate.field();
  }

  @Override
  public int myId() {
    return delegate.myId();
  }

  @Override
  public int parties() {
    return delegate.parties();
  }

  @Override
  public RoundProtocol setup() {
    return delegate.setup();
  }

  @Override
  public Shares constant(long[] values, int length) {
    return delegate.constant(values, length);
  }

  @Override
  public Shares add(Shares a, Shares b) {
    return delegate.add(a, b);
  }

  @Override
  public Shares sub(Shares a, Shares b) {
    return delegate.sub(a, b);
  }

  @Override
  public Shares add(Shares a, int ao, Shares b, int bo, int n) {
    return delegate.add(a, ao, b, bo, n);
  }

  @Override
  public Shares sub(Shares a, int ao, Shares b, int bo, int n) {
    return delegate.sub(a, ao, b, bo, n);
  }

  @Override
  public void addInto(Shares a, int ao, Shares b, int bo, Shares out, int oo, int n) {
    delegate.addInto(a, ao, b, bo, out, oo, n);
  }

  @Override
  public void subInto(Shares a, int ao, Shares b, int bo, Shares out, int oo, int n) {
    delegate.subInto(a, ao, b, bo, out, oo, n);
  }

  @Override
  public Shares negate(Shares a) {
    return delegate.negate(a);
  }

  @Override
  public Shares addConstant(Shares a, long[] c, int co) {
    return delegate.addConstant(a, c, co);
  }

  @Override
  public Shares scale(Shares a, long[] c, int co) {
    return delegate.scale(a, c, co);
  }

  @Override
  public Shares addConstants(Shares a, long[] c) {
    return delegate.addConstants(a, c);
  }

  @Override
  public Shares scaleEach(Shares a, long[] c) {
    return delegate.scaleEach(a, c);
  }

  @Override
  public Shares linear(Shares[] terms, int[] offsets, long[][] coefficients, int n) {
    return delegate.linear(terms, offsets, coefficients, n);
  }

  @Override
  public Shares sumRows(Shares a, int n, long[] scalars) {
    return delegate.sumRows(a, n, scalars);
  }

  @Override
  public Shares sum(Shares a) {
    return delegate.sum(a);
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    return delegate.input(owner, values, length);
  }

  @Override
  public RoundProtocol input(int owner, long[] values, int length, int bits) {
    return delegate.input(owner, values, length, bits);
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    return delegate.multiply(a, b);
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    return delegate.open(a, receiver);
  }

  @Override
  public RoundProtocol random(int length) {
    return delegate.random(length);
  }

  @Override
  public RoundProtocol randomBits(int length) {
    return delegate.randomBits(length);
  }

  @Override
  public RoundProtocol randomMasks(int length, int bits) {
    return delegate.randomMasks(length, bits);
  }

  @Override
  public RoundProtocol check(boolean end) {
    return delegate.check(end);
  }

  @Override
  public long materialWaitNanos() {
    return delegate.materialWaitNanos();
  }
}
