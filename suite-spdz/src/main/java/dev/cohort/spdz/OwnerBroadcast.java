package dev.cohort.spdz;

import dev.cohort.suite.RoundProtocol;

/**
 * A one-round protocol in which only its owner sends, the same words to every party (SPDZ's
 * inputs): the round's other links carry nothing, so it declares them idle and the channel leaves
 * their frames out.
 */
interface OwnerBroadcast extends RoundProtocol {

  /** The party that broadcasts. */
  int owner();

  /** This party. */
  int self();

  /** Only the owner sends: to every party. */
  @Override
  default boolean sendsTo(int round, int peer) {
    return self() == owner();
  }

  /** The others hear from the owner only. */
  @Override
  default boolean receivesFrom(int round, int peer) {
    return peer == owner();
  }
}
