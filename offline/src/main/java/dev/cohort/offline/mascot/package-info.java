/**
 * MASCOT [KOS16]: the SPDZ offline phase from oblivious transfer. {@link
 * dev.cohort.offline.mascot.MascotPreprocessing} is one party's {@link
 * dev.cohort.spdz.SpdzPreprocessing}: authenticated triples (Gilboa multiplication, combining,
 * sacrifice), random elements, random bits and input masks, each batch MAC-checked before it is
 * returned.
 *
 * <h2>References</h2>
 *
 * <ul>
 *   <li>[KOS16] Keller, Orsini, Scholl: MASCOT: faster malicious arithmetic secure computation with
 *       oblivious transfer. CCS 2016.
 *   <li>[Gil99] Gilboa: Two party RSA key generation. CRYPTO 1999.
 *   <li>[DPSZ12] Damgård, Pastro, Smart, Zakarias: Multiparty computation from somewhat homomorphic
 *       encryption. [DKL+13] Damgård, Keller, Larraia, Pastro, Scholl, Smart: Practical covertly
 *       secure MPC for dishonest majority.
 * </ul>
 */
package dev.cohort.offline.mascot;
