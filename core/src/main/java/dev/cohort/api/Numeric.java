package dev.cohort.api;

import java.math.BigInteger;
import java.util.List;
import java.util.function.Predicate;

/**
 * The builder applications write against. Every method records gates and returns at once; the
 * engine evaluates them later, batching independent gates of one kind into one round.
 *
 * <p>Integers are signed: an input declared with {@code bits} bits must lie in {@code [-2^(bits-1),
 * 2^(bits-1))} (who guarantees that to whom: {@link #input(int, long, int)}), and opened values
 * come back in the field's symmetric range.
 *
 * <p>Scheduling: gates recorded in one scope run as soon as their inputs exist, so independent
 * operations share rounds. {@link #seq} orders steps (a step starts when the one before has
 * finished and may use its opened values); {@link #par} groups independent branches.
 */
public interface Numeric {

  /** This party's 0-based index. */
  int myId();

  /** The number of parties. */
  int parties();

  /** The field's modulus bit length, for applications that size their values. */
  int fieldBits();

  /**
   * The field's prime modulus: public, for libraries that need public inverses (such as 2^-m when
   * truncating).
   */
  BigInteger modulus();

  // ---- input ----

  /**
   * A secret input of {@code party}, declared to be a {@code bits}-bit signed integer, in
   * [−2^(bits−1), 2^(bits−1)); {@code value} is read only at that party. {@code bits} is at most 64
   * here, at most {@link #fieldBits()} − 1 for {@link BigInteger} inputs.
   *
   * <p>What the declared range guarantees, and to whom:
   *
   * <ul>
   *   <li><b>At the owner, on every suite:</b> a value outside the range throws {@link
   *       IllegalArgumentException} (naming the party and position, never the value) before
   *       anything is sent.
   *   <li><b>SPDZ</b> (active security with abort, any number of corrupt parties): the range holds
   *       by construction, whatever the owner sends. The value enters as {@code bits} bits b = c
   *       XOR r, where r is a preprocessed authenticated random bit that only the owner knows and c
   *       is the bit the owner sends (packed, so every c is a bit); the value is Σ 2^j b_j −
   *       2^(bits−1), inside the range. An owner that sends different bits to different parties
   *       makes every honest party abort ("input broadcast check failed") before any opening that
   *       depends on the input; a frame of the wrong length aborts in the input round, naming the
   *       owner. The owner still chooses which in-range value it inputs. Every {@code bits} up to
   *       {@link #fieldBits()} − 1 is covered. Cost per value: {@code bits} input bits of the
   *       owner's preprocessing, {@code bits} bits on the wire, one round per input layer. Declare
   *       the smallest width that fits.
   *   <li><b>BGW</b> (semi-honest, honest majority): the range is the owner's own check only; the
   *       parties trust each other to run the protocol. A party that does not can input any field
   *       element, and the library's statistically masked operations (comparison, equality,
   *       truncation, bit decomposition, division) then no longer hide the other inputs.
   *   <li><b>Plaintext suite</b> (no secrecy, for tests): the owner's check only.
   * </ul>
   *
   * <p>Library operations that take a bit length k assume that their operands have k bits. For
   * inputs that is the declared range above; for computed values (sums and products grow) it is the
   * caller's to ensure.
   */
  Secret input(int party, long value, int bits);

  /**
   * A secret input of {@code party}, declared {@code bits}-bit signed (at most {@link #fieldBits()}
   * − 1); {@code value} is read only at that party. The range is guaranteed as for {@link
   * #input(int, long, int)}.
   */
  Secret input(int party, BigInteger value, int bits);

  /**
   * {@code length} secret inputs of {@code party}, each declared {@code bits}-bit signed; {@code
   * values} is read only at that party (other parties may pass null). The range is guaranteed as
   * for {@link #input(int, long, int)}, for all {@code length} values in one proof.
   */
  SecretVector input(int party, long[] values, int length, int bits);

  /**
   * Column {@code column} of the inputs that a session's clients submitted: one secret per
   * contributor, in the agreed order, each declared {@code inputs.bits(column)}-bit signed. No
   * communication: the shares are the ones the input server validated. {@code inputs} must come
   * from this framework's input server for the suite that runs this computation.
   */
  SecretVector clientInputs(ClientInputs inputs, int column);

  // ---- public constants ----

  Secret known(long value);

  Secret known(BigInteger value);

  SecretVector known(long[] values);

  SecretVector known(BigInteger[] values);

  // ---- arithmetic on single secrets ----

  Secret add(Secret a, Secret b);

  Secret add(Secret a, long constant);

  Secret sub(Secret a, Secret b);

  /** {@code constant - a}. */
  Secret sub(long constant, Secret a);

  Secret negate(Secret a);

  Secret mul(Secret a, Secret b);

  /** Multiplication by a public constant: local, no round. */
  Secret mul(Secret a, long constant);

  /** Multiplication by a public constant: local, no round. */
  Secret mul(Secret a, BigInteger constant);

  Secret sum(List<Secret> terms);

  /** The inner product of two lists: one multiplication round. */
  Secret innerProduct(List<Secret> a, List<Secret> b);

  // ---- arithmetic on vectors (one gate over arrays) ----

  SecretVector add(SecretVector a, SecretVector b);

  SecretVector add(SecretVector a, long constant);

  SecretVector sub(SecretVector a, SecretVector b);

  SecretVector negate(SecretVector a);

  SecretVector mul(SecretVector a, SecretVector b);

  /** Every element times the one secret {@code s}. */
  SecretVector mul(SecretVector a, Secret s);

  SecretVector mul(SecretVector a, long constant);

  SecretVector mul(SecretVector a, BigInteger constant);

  /** {@code a[i] + constants[i]}: local. */
  SecretVector add(SecretVector a, long[] constants);

  /** {@code a[i] * constants[i]}: local. */
  SecretVector mul(SecretVector a, long[] constants);

  Secret sum(SecretVector a);

  Secret innerProduct(SecretVector a, SecretVector b);

  /**
   * A linear form with small public coefficients over rows of {@code n} elements, as one local step
   * and one pass over the shares: {@code out[j] = constants[j] + Σ_t coefficients[t][j] ·
   * vectors[t][rows[t]·n + j]} for {@code j < n}. Row r of a vector is its elements {@code [r·n,
   * (r+1)·n)}: bit r of a bit-major batch of n values, or the whole vector for r = 0 and length n.
   * The bitwise protocols of the library (a Hamming distance to public bits, comparisons with
   * public bits) are such forms; composing them from {@code mul} and {@code add} costs a vector and
   * a pass per term.
   *
   * @param coefficients per term, n integers below 2^31 in magnitude, or null for all ones
   * @param constants n public integers added, or null
   * @throws IllegalArgumentException for mismatched lengths, rows outside a vector or coefficients
   *     out of range
   */
  SecretVector linear(
      int n, List<SecretVector> vectors, int[] rows, List<long[]> coefficients, long[] constants);

  /**
   * {@code Σ_i scalars[i] · rows[i·n + j]} for {@code j < n}: the rows of a vector of {@code
   * scalars.length · n} elements scaled by public constants and summed, in one local step (bits
   * composed into the integers they spell, with powers of two).
   */
  SecretVector sumRows(SecretVector rows, int n, BigInteger[] scalars);

  // ---- reshaping (local) ----

  /** Packs single secrets into a vector. */
  SecretVector vector(List<Secret> elements);

  /** Element {@code index} of {@code v}. */
  Secret get(SecretVector v, int index);

  /** Elements {@code [from, to)} of {@code v}. */
  SecretVector slice(SecretVector v, int from, int to);

  SecretVector concat(SecretVector a, SecretVector b);

  // ---- opening ----

  /** Opens to every party; the value must fit in a signed 64-bit integer. */
  Deferred<Long> open(Secret a);

  Deferred<BigInteger> openBig(Secret a);

  Deferred<long[]> open(SecretVector a);

  Deferred<BigInteger[]> openBig(SecretVector a);

  /**
   * Opens to every party the low {@code bits} bits of each element's representative in [0, p),
   * little-endian in ⌈bits / 64⌉ words per element: c mod 2^bits of the nonnegative masked values
   * that comparison protocols open, without decoding a {@link BigInteger} per element.
   */
  Deferred<long[]> openLowBits(SecretVector a, int bits);

  /** Opens to {@code party} only; reading it at another party throws. */
  Deferred<Long> openTo(int party, Secret a);

  Deferred<long[]> openTo(int party, SecretVector a);

  // ---- randomness ----

  /** A uniformly random field element that no party knows. */
  Secret random();

  SecretVector random(int length);

  /** A uniformly random bit (0 or 1) that no party knows. */
  Secret randomBit();

  SecretVector randomBits(int length);

  /**
   * {@code length} secret random integers for statistical masking, each below {@code parties() ·
   * 2^bits}: r = u + w with u uniform in [0, 2^bits) and independent of w and of what any set of
   * parties the suite tolerates sees. Adding r to a value in [0, 2^b) hides it to statistical
   * distance 2^(b − bits). Suites with authenticated or costly bits compose {@code bits} random
   * bits (r uniform in [0, 2^bits)); BGW sums integers dealt by t + 1 parties, with no
   * multiplication.
   */
  SecretVector randomMasks(int length, int bits);

  // ---- secrets that later steps compute ----

  /**
   * A handle, usable at once as an operand, to the secret that {@code step} returns: gates that use
   * it wait until the step has finished. This is how a library function that must open a masked
   * value before it can finish (a comparison, say) still returns a plain secret. The step may
   * return a secret that it did not compute (an outer input, say): it then finishes when that
   * secret has been computed.
   */
  Secret secretOf(Step<? extends Secret> step);

  /** As {@link #secretOf}, for a step that returns a vector of {@code length} secrets. */
  SecretVector vectorOf(Step<? extends SecretVector> step, int length);

  // ---- scopes ----

  /** A step built now, which later steps can follow with {@link Step#seq}. */
  <T> Step<T> seq(Computation<T> step);

  /**
   * An independent branch whose gates share rounds with everything else that is ready. Its value
   * exists once all its gates have finished; a step can follow it with {@link Step#seq}.
   */
  <T> Step<T> par(Computation<T> branch);

  /** Independent branches, evaluated side by side; their results in order. */
  <T> Deferred<List<T>> par(List<? extends Computation<T>> branches);

  /**
   * Runs {@code body} again and again while {@code condition} holds for the state, each iteration
   * built from the value of the one before (so a loop may depend on opened values). Returns the
   * final state.
   */
  <T> Step<T> loop(T initial, Predicate<? super T> condition, StepFunction<T, T> body);
}
