package dev.cohort.offline.ot;

/**
 * Oblivious transfers between this party and every peer, in both directions at once: in one call
 * this party is the sender of {@code count} OTs to every peer and the receiver of {@code count} OTs
 * from every peer, and every party of the {@link dev.cohort.net.Channel} makes the same call at the
 * same time (each round of the protocol is one {@code exchange}, one frame per peer).
 *
 * <p>The OTs are chosen-choice, random-message: for OT j from sender S to receiver R, S learns two
 * uniformly random 128-bit keys k0_j and k1_j, and R, with choice bit c_j, learns k_{c_j} and
 * nothing about the other; S learns nothing about c_j. Keys are two longs each (key j at words
 * {@code [2j, 2j + 2)}); choice bits are packed, bit j at {@code choices[j >>> 6] >>> (j & 63) &
 * 1}.
 *
 * <p>An implementation that detects a cheating peer throws {@link dev.cohort.api.AbortException}
 * naming the peer and the check, before any key of the failed batch is returned.
 */
public interface PairwiseOts {

  /**
   * Runs {@code count} OTs per ordered pair of parties. {@code choices[p]} are this party's choice
   * bits as receiver from peer {@code p} (null at this party's own index).
   */
  OtBatch transfer(int count, long[][] choices);
}
