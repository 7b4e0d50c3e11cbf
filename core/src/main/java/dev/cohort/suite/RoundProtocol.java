package dev.cohort.suite;

/**
 * A suite's evaluation of one batch of native gates of one kind, spread over rounds. The engine
 * calls {@link #send} for round 0, exchanges one frame per peer, calls {@link #receive} for round
 * 0, then round 1, and so on until {@code receive} returns true. A protocol that needs no
 * communication is done when created ({@link #isDone()}).
 *
 * <p>Following MP-SPDZ's prepare/exchange/finalize: every protocol of a round writes into the same
 * per-peer frames, so the whole round costs one exchange.
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
