/**
 * Oblivious transfer for the SPDZ offline phase: base OTs on an elliptic curve and an actively
 * secure OT extension, both behind {@link dev.cohort.offline.ot.PairwiseOts}.
 *
 * <ul>
 *   <li>{@link dev.cohort.offline.ot.BaseOts}: Chou–Orlandi [CO15] on P-256 with BouncyCastle, two
 *       rounds, a few hundred OTs per pair (the extension's seeds).
 *   <li>{@link dev.cohort.offline.ot.KosExtension}: [KOS15] over any {@code PairwiseOts}, three
 *       rounds per call, millions of OTs per pair per second.
 * </ul>
 *
 * <p>Every implementation serves all ordered pairs of parties in the same rounds (one frame per
 * peer per round) and aborts naming the peer and the check when a peer misbehaves.
 *
 * <h2>References</h2>
 *
 * <ul>
 *   <li>[CO15] Chou, Orlandi: The simplest protocol for oblivious transfer. LATINCRYPT 2015.
 *   <li>[GIR17] Genç, Iovino, Rial: "The simplest protocol for oblivious transfer" revisited.
 *       ePrint 2017/370.
 *   <li>[HL17] Hauck, Loss: Efficient and universally composable protocols for oblivious transfer
 *       from the CDH assumption. ePrint 2017/1011.
 *   <li>[KOS15] Keller, Orsini, Scholl: Actively secure OT extension with optimal overhead. CRYPTO
 *       2015.
 *   <li>[GKWY20] Guo, Katz, Wang, Yu: Efficient and secure multiparty computation from fixed-key
 *       block ciphers. IEEE S&amp;P 2020.
 * </ul>
 */
package dev.cohort.offline.ot;
