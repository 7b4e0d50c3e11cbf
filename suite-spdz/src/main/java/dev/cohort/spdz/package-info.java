/**
 * The SPDZ online phase [DPSZ12, DKL+13]: additive sharing with information-theoretic MACs among n
 * ≥ 2 parties, secure with abort against any number of actively corrupt parties, given correct
 * preprocessing.
 *
 * <p>A value x is held as ⟨x⟩ = (x_i, m_i) with Σ x_i = x and Σ m_i = α·x, the MAC key α itself
 * additively shared. The family of files every suite has: {@link dev.cohort.spdz.SpdzSuite} binds
 * it ({@link dev.cohort.spdz.SpdzConfig} configures it), {@link dev.cohort.spdz.SpdzSharing} is
 * local, {@link dev.cohort.spdz.SpdzInput} inputs through a preprocessed mask, {@link
 * dev.cohort.spdz.BeaverMultiply} multiplies with a triple [Bea91], {@link
 * dev.cohort.spdz.SpdzOpen} opens (only after a check covering every earlier opening), {@link
 * dev.cohort.spdz.SpdzRangeInput} enters inputs of a declared width from input bits known to their
 * owner (in range by construction), and {@link dev.cohort.spdz.MacCheck} checks what was opened
 * (commit-then-open of the seed, {@link dev.cohort.spdz.BroadcastCheck} for input broadcasts
 * alone). {@link dev.cohort.spdz.SpdzPreprocessing} supplies the material, from a {@link
 * dev.cohort.spdz.PreprocessingSource}: the dealer files of {@link dev.cohort.spdz.DealerFiles}
 * (bound to their use record, {@link dev.cohort.spdz.UseRecord}; {@link
 * dev.cohort.spdz.SpdzConfig#dealerFiles}) or the seeded, <b>INSECURE</b> {@link
 * dev.cohort.spdz.InsecureDealer} of tests and benchmarks ({@link
 * dev.cohort.spdz.SpdzConfig#insecureDealer}). When an engine runs sessions in groups on their own
 * threads, its suites share one source, and {@link dev.cohort.spdz.SlicedPreprocessing} gives each
 * group a disjoint slice of it, the same at every party.
 *
 * <p>The gates never reach back into the suite: it hands each one its preprocessed material and the
 * per-party collaborators it uses, each with one job. {@link dev.cohort.spdz.ShareExchange} sends
 * this party's elements to its peers and sums theirs, rejecting any element outside the field with
 * an abort that names the peer; {@link dev.cohort.spdz.PeerShares} is its fused, block-wise sum
 * over the Mersenne fields. {@link dev.cohort.spdz.CheckLedger} records what the MAC checks must
 * cover (the opened values in {@link dev.cohort.spdz.OpenedValues}, the digest of the input
 * broadcasts, the committed seed of the next check) and holds the check-then-open rule: when a
 * check starts and when an opening may send. {@link dev.cohort.spdz.ColumnPool} lends the large
 * columns of multiplications and range inputs, and takes them back. {@link
 * dev.cohort.spdz.SpdzKernels} are the fused kernels of the two Mersenne fields, {@link
 * dev.cohort.spdz.Hashing} the commitments and digests.
 *
 * <p>The suite's security is the rules of PROTOCOLS.md §2 (when a MAC check must come before an
 * opening, inputs in range, a failed check burns the key); every rule the suite implements has a
 * test that plays the attack through a corrupt party. No message ever carries a share, a MAC key,
 * an input or an output.
 *
 * <h2>References</h2>
 *
 * <ul>
 *   <li>[DPSZ12] Ivan Damgård, Valerio Pastro, Nigel Smart, Sarah Zakarias: Multiparty computation
 *       from somewhat homomorphic encryption. CRYPTO 2012.
 *   <li>[DKL+13] Ivan Damgård, Marcel Keller, Enrique Larraia, Valerio Pastro, Peter Scholl, Nigel
 *       P. Smart: Practical covertly secure MPC for dishonest majority — or: breaking the SPDZ
 *       limits. ESORICS 2013.
 *   <li>[DDN+16] Ivan Damgård, Kasper Damgård, Kurt Nielsen, Peter Sebastian Nordholt, Tomas Toft:
 *       Confidential benchmarking based on multiparty computation. Financial Cryptography 2016 (the
 *       triples {@link dev.cohort.spdz.SpdzSuite#triplesForClients} draws for input clients).
 *   <li>[Bea91] Donald Beaver: Efficient multiparty protocols using circuit randomization. CRYPTO
 *       1991.
 * </ul>
 */
package dev.cohort.spdz;
