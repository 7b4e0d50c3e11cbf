package dev.cohort.suite;

/**
 * A suite's evaluation of one batch of native gates of one kind, spread over rounds. The engine
 * calls {@link #send} for round 0, exchanges at most one frame per peer, calls {@link #receive} for
 * round 0, then round 1, and so on until {@code receive} returns true. A protocol that needs no
 * communication is done when created ({@link #isDone()}).
 *
 * <p>Following MP-SPDZ's prepare/exchange/finalize: every protocol of a round writes into the same
 * per-peer frames, so the whole round costs one exchange. A protocol that knows which peers it
 * sends to and hears from in a round says so ({@link #sendsTo}, {@link #receivesFrom}), and the
 * round leaves out the frames that no protocol of it needs.
 */
public interface RoundProtocol {

  /** True when the protocol finished without communication. */
  default boolean isDone() {
    return false;
  }

  /** Writes this party's messages for {@code round}. */
  void send(int round, Outbox out);

  /** Reads the messages of {@code round}; returns true when the protocol has finished. */
  boolean receive(int round, Inbox in);

  /**
   * Whether this party's frame to {@code peer} in this protocol's {@code round} may carry words of
   * it (true unless the protocol knows it sends {@code peer} nothing then). A round whose protocols
   * all send a peer nothing leaves that peer's frame out, so this must agree with the peer's {@link
   * #receivesFrom}: {@code sendsTo(r, q)} at party p equals {@code receivesFrom(r, p)} at party q.
   */
  default boolean sendsTo(int round, int peer) {
    return true;
  }

  /**
   * Whether this party reads words of this protocol from {@code peer}'s frame in its {@code round}
   * (true unless the protocol knows it reads nothing from {@code peer} then); see {@link #sendsTo}.
   */
  default boolean receivesFrom(int round, int peer) {
    return true;
  }

  /** The resulting shares, once finished (gates that produce secrets). */
  default Shares shares() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " produces no shares");
  }

  /**
   * The opened packed field elements, once finished (open gates); null at a party that is not a
   * receiver.
   */
  default long[] opened() {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " opens nothing");
  }

  /** A protocol that needed no communication: its shares exist already. */
  static RoundProtocol finished(Shares shares) {
    return finished(shares, null);
  }

  /** A protocol that needed no communication, with its shares and/or opened values. */
  static RoundProtocol finished(Shares shares, long[] opened) {
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

      @Override
      public long[] opened() {
        return opened;
      }
    };
  }
}
