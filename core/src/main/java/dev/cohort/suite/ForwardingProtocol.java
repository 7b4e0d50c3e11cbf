package dev.cohort.suite;

/**
 * A protocol that forwards everything to another: a decorator (an observer, a test's corrupt party)
 * extends it and overrides only what it changes. Forwarding {@link #sendsTo} and {@link
 * #receivesFrom} matters: a wrapper that left them at their defaults would put frames on links its
 * peers expect to be idle, and the round would fail for that instead of for what the wrapper does.
 */
public abstract class ForwardingProtocol implements RoundProtocol {

  protected final RoundProtocol delegate;

  protected ForwardingProtocol(RoundProtocol delegate) {
    this.delegate = delegate;
  }

  @Override
  public boolean isDone() {
    return delegate.isDone();
  }

  @Override
  public void send(int round, Outbox out) {
    delegate.send(round, out);
  }

  @Override
  public boolean receive(int round, Inbox in) {
    return delegate.receive(round, in);
  }

  @Override
  public boolean sendsTo(int round, int peer) {
    return delegate.sendsTo(round, peer);
  }

  @Override
  public boolean receivesFrom(int round, int peer) {
    return delegate.receivesFrom(round, peer);
  }

  @Override
  public Shares shares() {
    return delegate.shares();
  }

  @Override
  public long[] opened() {
    return delegate.opened();
  }
}
