package dev.cohort.offline.mascot;

/**
 * Where a corrupt party's own values may be altered, for tests that play a cheat: an honest party
 * uses {@link #NONE}, which changes nothing.
 */
interface Deviation {

  Deviation NONE = new Deviation() {};

  /** This party's shares and MAC shares of values about to be opened (shares are sent). */
  default void openingShares(long[] shares, long[] macs) {}
}
