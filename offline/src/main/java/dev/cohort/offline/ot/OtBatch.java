package dev.cohort.offline.ot;

/**
 * What one {@link PairwiseOts#transfer} returns at one party, indexed by peer (null at this party's
 * own index): as sender to peer p, both keys of every OT ({@code zero[p]}, {@code one[p]}, 2 longs
 * per OT); as receiver from peer p, the chosen key of every OT ({@code received[p]}).
 */
public record OtBatch(long[][] zero, long[][] one, long[][] received) {}
