/**
 * Oblivious transfer for the SPDZ offline phase: base OTs on an elliptic curve and an actively
 * secure OT extension, both behind {@link dev.cohort.offline.ot.PairwiseOts}.
 */
package dev.cohort.offline.ot;
