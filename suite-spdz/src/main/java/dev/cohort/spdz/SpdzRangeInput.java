package dev.cohort.spdz;

import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.Shares;
import java.math.BigInteger;

/**
 * Input of m values that their owner declared to be k-bit signed integers, in one round, whose
 * shares are of values in [−2^(k−1), 2^(k−1)) whatever a corrupt owner sends: the range holds by
 * construction, so no check and no abort is needed for it. The statistical masks of the library
 * ([CdH10]: comparison, equality, truncation, bit decomposition, division) hide a value only if it
 * really has the bits they assume; the owner's own range check proves nothing to the others.
 *
 * <p>Preprocessing: k·m <i>input bits</i> of the owner ({@link SpdzPreprocessing#inputBits}),
 * authenticated uniform bits ⟨r⟩, r ∈ {0, 1}, whose values only the owner knows (as input masks are
 * uniform elements only their owner knows). Bit j of value i is at j·m + i (bit-major).
 *
 * <pre>
 *  round 0   owner: b = the bits of a_i + 2^(k−1) ∈ [0, 2^k);  sends every party c = b XOR r,
 *            packed 64 bits a word (⌈k·m/64⌉ words; bits past k·m are ignored)
 *            everyone: records the words as a broadcast ({@link CheckLedger}), then
 *            ⟨b_t⟩ = c_t + (1 − 2c_t)·⟨r_t⟩  and  ⟨a_i⟩ = Σ_j 2^j·⟨b_{j·m+i}⟩ − 2^(k−1)  (local)
 * </pre>
 *
 * <p>Privacy: each c_t is b_t XOR a uniform bit that no other party knows, so c is a uniform bit
 * string independent of the input. Soundness: every word a corrupt owner may send decodes to bits
 * c_t ∈ {0, 1}, and r_t is an authenticated bit, so b_t = c_t + (1 − 2c_t)·r_t ∈ {r_t, 1 − r_t} is
 * a bit and a_i = Σ_j 2^j·b_j − 2^(k−1) lies in the declared range: what the owner can still choose
 * is only which in-range value it inputs, as in any MPC. Consistency: an owner that sends different
 * words to different parties is caught by the broadcast digests compared before any value that
 * depends on the input is opened (the check-before-open rule of {@link CheckLedger}: an opening
 * waits for a check covering every recorded broadcast, a one-round {@link BroadcastCheck} when only
 * broadcasts are unchecked). A frame of another length is refused by the engine, naming the owner.
 *
 * <p>Cost per value: k input bits and k bits sent (instead of one input mask and one element); no
 * triple, no opening, no MAC check: one round, as an unproven input. Every k accepted by the
 * builder (up to the field's bits − 1) holds, also those too wide for any statistical mask: the
 * range is what the caller declared. Declare the smallest k that fits.
 */
final class SpdzRangeInput implements OwnerBroadcast {

  private final ShareExchange exchange;
  private final CheckLedger ledger;
  private final SpdzSharing sharing;
  private final ColumnPool pool;
  private final Field field;
  private final int owner;
  private final int m;
  private final int k;
  private final int n; // k·m bits
  private final InputMasks bits; // ⟨r⟩, and r at the owner
  private final long[] packed; // c, ⌈n/64⌉ words
  private Shares result;

  /**
   * An input of {@code m} values of {@code owner} declared {@code k}-bit, and its k·m input bits.
   */
  record Declared(int owner, int m, int k, InputMasks bits) {}

  /**
   * The input {@code input} of {@code values} (packed elements at the owner; null elsewhere). The
   * temporary of the composition is borrowed from {@code pool}.
   */
  SpdzRangeInput(
      ShareExchange exchange,
      CheckLedger ledger,
      SpdzSharing sharing,
      ColumnPool pool,
      Declared input,
      long[] values) {
    this.exchange = exchange;
    this.ledger = ledger;
    this.sharing = sharing;
    this.pool = pool;
    this.field = exchange.field();
    this.owner = input.owner();
    this.m = input.m();
    this.k = input.k();
    this.n = Math.multiplyExact(k, m);
    this.bits = input.bits();
    this.packed = new long[packedWords(n)];
    if (exchange.self() == owner) {
      long[] c = packed;
      System.arraycopy(offsetBits(field, owner, values, m, k), 0, c, 0, c.length);
      long[] r = bits.values();
      int words = field.words();
      for (int t = 0; t < n; t++) {
        c[t >>> 6] ^= (r[t * words] & 1) << (t & 63); // r_t is 0 or 1: its low word is it
      }
    }
  }

  /** The input bits ⟨r⟩ the value is composed of, with their values r at the owner. */
  InputMasks inputBits() {
    return bits;
  }

  /**
   * The packed bits c = b XOR r that the owner sends and every party records and composes (the
   * array itself: what is in it when this input sends, and receives at the owner, is what counts).
   */
  long[] maskedBits() {
    return packed;
  }

  /** The number of words that hold {@code n} bits. */
  static int packedWords(int n) {
    return (n + 63) >>> 6;
  }

  /**
   * The owner's bits of a_i + 2^(k−1) ∈ [0, 2^k), bit-major (bit j of value i at j·m + i), packed
   * 64 a word. Throws for a value outside the range: the builder has checked it already, so this is
   * a caller error, and it is named by position only, never by value.
   */
  static long[] offsetBits(Field field, int owner, long[] values, int m, int k) {
    int words = field.words();
    long[] half = field.alloc(1);
    field.encode(BigInteger.ONE.shiftLeft(k - 1), half, 0);
    long[] u = field.alloc(m);
    field.addScalar(values, 0, half, 0, u, 0, m);
    long[] out = new long[packedWords(Math.multiplyExact(k, m))];
    for (int i = 0; i < m; i++) {
      for (int w = 0; w < words; w++) {
        int below = k - 64 * w; // bits of word w that may be set
        long allowed = below >= 64 ? -1L : below <= 0 ? 0L : (1L << below) - 1;
        if ((u[i * words + w] & ~allowed) != 0) {
          throw new IllegalArgumentException(
              PartyId.of(owner)
                  + "'s input at position "
                  + i
                  + " is outside the declared "
                  + k
                  + "-bit signed range [-2^"
                  + (k - 1)
                  + ", 2^"
                  + (k - 1)
                  + ")");
        }
      }
      for (int j = 0; j < k; j++) {
        int t = j * m + i;
        out[t >>> 6] |= ((u[i * words + (j >>> 6)] >>> (j & 63)) & 1) << (t & 63);
      }
    }
    return out;
  }

  @Override
  public int owner() {
    return owner;
  }

  @Override
  public int self() {
    return exchange.self();
  }

  @Override
  public void send(int round, Outbox out) {
    if (exchange.self() != owner) {
      return;
    }
    for (int p = 0; p < exchange.parties(); p++) {
      if (p != owner) {
        out.write(p, packed, 0, packed.length);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (exchange.self() != owner) {
      in.read(owner, packed, 0, packed.length);
    }
    ledger.recordBroadcastWords(owner, packed, n);
    result = compose();
    return true;
  }

  /**
   * ⟨a_i⟩ = Σ_j 2^j·(c_t + (1 − 2c_t)·⟨r_t⟩) − 2^(k−1), t = j·m + i: ⟨r⟩ negated where c_t = 1
   * ({@link Field#negateWhere}, straight from the packed bits: no multiplication by ±1), composed
   * with powers of two, plus the public Σ_j 2^j·c_t − 2^(k−1) added by the sharing's kernel (P0's
   * share, α_i times it on every MAC share). The public part is the integer whose bits are
   * c_{j·m+i} (below 2^k ≤ 2^(bits of p − 1), so its little-endian words are its field element).
   * One pass per column, MACs alike; the k·m-element temporary is borrowed from the {@link
   * ColumnPool}.
   */
  private Shares compose() {
    int words = field.words();
    long[] powers = field.alloc(k);
    for (int j = 0; j < k; j++) {
      field.encode(BigInteger.ONE.shiftLeft(j), powers, j);
    }
    Shares r = bits.shares();
    long[] signed = pool.borrow(n);
    long[] aShare = field.alloc(m);
    long[] aMac = field.alloc(m);
    field.negateWhere(packed, 0, false, r.share, 0, signed, 0, n);
    field.sumRows(signed, 0, k, m, powers, aShare, 0);
    field.negateWhere(packed, 0, false, r.mac, 0, signed, 0, n);
    field.sumRows(signed, 0, k, m, powers, aMac, 0);
    pool.giveBack(signed);
    long[] constant = field.alloc(m);
    for (int j = 0; j < k; j++) {
      int w = j >>> 6;
      int shift = j & 63;
      for (int i = 0; i < m; i++) {
        int t = j * m + i;
        constant[i * words + w] |= ((packed[t >>> 6] >>> (t & 63)) & 1) << shift;
      }
    }
    long[] minusHalf = field.alloc(1);
    field.encode(BigInteger.ONE.shiftLeft(k - 1).negate(), minusHalf, 0);
    field.addScalar(constant, 0, minusHalf, 0, constant, 0, m);
    return sharing.addPublic(new Shares(m, aShare, aMac), constant, 0);
  }

  @Override
  public Shares shares() {
    return result;
  }
}
