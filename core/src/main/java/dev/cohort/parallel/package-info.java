/**
 * Local parallelism of one party: {@link dev.cohort.parallel.Workers}, a fixed set of daemon
 * threads that a suite splits its large per-element kernels over (resharing, Beaver combination,
 * MAC-check sums, PRG expansion). A party's protocol stays one thread that sends one frame per peer
 * per round; only the local arithmetic between two exchanges is split, into contiguous ranges whose
 * results do not depend on how many threads ran them. Depends on nothing else of Cohort.
 */
package dev.cohort.parallel;
