/**
 * The standard library of computations, written against the application API only: comparison and
 * truncation ({@link dev.cohort.lib.Comparison}), equality ({@link dev.cohort.lib.Equality}), bit
 * decomposition ({@link dev.cohort.lib.BitDecomposition}), division ({@link
 * dev.cohort.lib.Division}), fixed point ({@link dev.cohort.lib.FixedPoint}), minimum and maximum
 * ({@link dev.cohort.lib.Extremes}), oblivious selection and sorting ({@link
 * dev.cohort.lib.Select}, {@link dev.cohort.lib.Sorting}) and statistics ({@link
 * dev.cohort.lib.Statistics}).
 *
 * <p>Invariant: this package sees nothing of Cohort but {@code dev.cohort.api} (the layering test
 * checks it), so every operation runs unchanged on every suite. The masked protocols share their
 * masks through {@link dev.cohort.lib.Masking} and their bits in the bit-major layout of {@link
 * dev.cohort.lib.Bits}; they are statistically hiding with distance 2^−κ and need a field of k + κ
 * + 1 bits for k-bit values.
 *
 * <h2>References</h2>
 *
 * <ul>
 *   <li>[CdH10] Octavian Catrina, Sebastiaan de Hoogh: Improved primitives for secure multiparty
 *       integer computation. SCN 2010.
 *   <li>[DFK+06] Ivan Damgård, Matthias Fitzi, Eike Kiltz, Jesper Buus Nielsen, Tomas Toft:
 *       Unconditionally secure constant-rounds multi-party computation for equality, comparison,
 *       bits and exponentiation. TCC 2006.
 *   <li>Nishide &amp; Ohta 2007: Takashi Nishide, Kazuo Ohta: Multiparty computation for interval,
 *       equality, and comparison without bit-decomposition protocol. PKC 2007.
 *   <li>Granlund &amp; Montgomery 1994: Torbjörn Granlund, Peter L. Montgomery: Division by
 *       invariant integers using multiplication. PLDI 1994.
 *   <li>Batcher 1968: Kenneth E. Batcher: Sorting networks and their applications. AFIPS Spring
 *       Joint Computer Conference 1968.
 *   <li>Kogge–Stone: Peter M. Kogge, Harold S. Stone: A parallel algorithm for the efficient
 *       solution of a general class of recurrence equations. IEEE Transactions on Computers, 1973.
 * </ul>
 */
package dev.cohort.lib;
