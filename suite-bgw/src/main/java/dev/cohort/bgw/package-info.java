/**
 * The BGW suite [BGW88]: Shamir secret sharing [Sha79] of degree t among n ≥ 3 parties, t < n/2,
 * secure against t semi-honest parties.
 *
 * <p>The family of files every suite has: {@link dev.cohort.bgw.BgwSuite} binds it ({@link
 * dev.cohort.bgw.BgwConfig} configures it), {@link dev.cohort.bgw.ShamirSharing} is the local
 * linear algebra (party i holds the evaluation at i + 1, never at 0), {@link
 * dev.cohort.bgw.ShamirMultiply} multiplies with the one-round degree reduction of [GRR98] over the
 * dealing of {@link dev.cohort.bgw.BgwReshare}, and {@link dev.cohort.bgw.BgwOpen} opens, checking
 * every share beyond t + 1 so that an inconsistent sharing aborts instead of opening wrong.
 * Randomness without communication: {@link dev.cohort.bgw.Prss}, pseudo-random secret sharing
 * [CDI05], while the C(n, t) key sets are few. Random bits: {@link dev.cohort.bgw.BgwPrssBits} (t =
 * 1, PRSS [CDI05]), {@link dev.cohort.bgw.BgwDealtBits} (XOR of t + 1 dealt bits) and {@link
 * dev.cohort.bgw.BgwRandomBits} (the square-root trick). The exact protocols and their costs are in
 * PROTOCOLS.md §1.
 *
 * <h2>References</h2>
 *
 * <ul>
 *   <li>[BGW88] Michael Ben-Or, Shafi Goldwasser, Avi Wigderson: Completeness theorems for
 *       non-cryptographic fault-tolerant distributed computation. STOC 1988.
 *   <li>[Sha79] Adi Shamir: How to share a secret. Communications of the ACM, 1979.
 *   <li>[GRR98] Rosario Gennaro, Michael O. Rabin, Tal Rabin: Simplified VSS and fast-track
 *       multiparty computations with applications to threshold cryptography. PODC 1998.
 *   <li>[CDI05] Ronald Cramer, Ivan Damgård, Yuval Ishai: Share conversion, pseudorandom
 *       secret-sharing and applications to secure computation. TCC 2005.
 * </ul>
 */
package dev.cohort.bgw;
