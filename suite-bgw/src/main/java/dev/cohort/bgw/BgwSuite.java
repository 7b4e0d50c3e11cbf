package dev.cohort.bgw;

import dev.cohort.field.Field;
import dev.cohort.field.Mersenne127;
import dev.cohort.field.Mersenne61;
import dev.cohort.parallel.Workers;
import dev.cohort.random.Prg;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.PolynomialSuite;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.math.BigInteger;

/**
 * The BGW suite: Shamir secret sharing of degree t among n ≥ 3 parties, t < n/2, secure against t
 * semi-honest parties. Linear operations are local; input, multiplication (GRR degree reduction),
 * opening and dealt random elements take one round each; random elements by PRSS take none; random
 * bits take two.
 *
 * <p>Set-up (one round, once per engine): each party sends a fresh PRG key to each party of T_i
 * (pairwise seeds for dealing) and, for PRSS, the lowest member of each key set sends its key.
 */
public final class BgwSuite extends PolynomialSuite {

  private final BgwConfig config;
  final ShamirSharing sharing;
  final int threshold;
  private final Prg prg;
  private final boolean usePrss;
  private BgwKeySetup keys; // the pairwise seeds and PRSS keys, once set up
  private final Workers workers;
  private final BgwLane lane = new BgwLane(this); // the pairwise generators and scratch themselves
  private BgwSplit split; // per-chunk lanes of split kernels, made on first use
  private BgwPrssBits.Weights prssBitWeights; // computed on first use
  private long[] spareColumn; // see spareColumn(int)

  private BgwSuite(BgwConfig config, int party, int parties, Prg prg) {
    super(config.field(), party, parties);
    this.config = config;
    this.threshold = config.thresholdFor(parties);
    this.sharing = new ShamirSharing(field, parties, threshold, party);
    this.prg = prg;
    // exact (saturating) count: a wrapped count once chose PRSS where it could not run
    this.usePrss = Prss.setCount(parties, threshold) <= config.prssLimit();
    this.workers = Workers.of(config.threads());
  }

  /** The BGW suite over {@code field} with the default threshold. */
  public static SuiteFactory factory(Field field) {
    return factory(BgwConfig.of(field));
  }

  public static SuiteFactory factory(BgwConfig config) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return "bgw("
            + config.field().name()
            + (config.threshold() > 0 ? ", t=" + config.threshold() : "")
            + (config.threads() > 1 ? ", threads=" + config.threads() : "")
            + ")";
      }

      @Override
      public Field field() {
        return config.field();
      }

      /** Every suite draws its randomness from its own generator and its own key set-up. */
      @Override
      public boolean runsInGroups() {
        return true;
      }

      @Override
      public void validate(int parties) {
        if (parties < 3) {
          throw new IllegalArgumentException(
              "BGW needs at least 3 parties, got " + parties + " (use SPDZ for 2 parties)");
        }
        int t = config.thresholdFor(parties);
        if (2 * t >= parties) {
          throw new IllegalArgumentException(
              "threshold (" + t + ") must be < parties / 2 (parties: " + parties + ")");
        }
        if (parties > 1000) {
          throw new IllegalArgumentException("parties (" + parties + ") must be <= 1000");
        }
        // party i's point is x_i = i + 1: n distinct nonzero points need p > n
        BigInteger p = config.field().modulus();
        if (p.compareTo(BigInteger.valueOf(parties)) <= 0) {
          throw new IllegalArgumentException(
              "BGW with "
                  + parties
                  + " parties needs a field with more than "
                  + parties
                  + " elements (the points 1.."
                  + parties
                  + " must be distinct and nonzero); "
                  + config.field().name()
                  + " has p = "
                  + p);
        }
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        validate(parties);
        return new BgwSuite(config, party, parties, prg);
      }
    };
  }

  public int threshold() {
    return threshold;
  }

  // ---- set-up: pairwise and PRSS keys ----

  /** Agrees the pairwise seeds and PRSS keys in one round; see {@link BgwKeySetup}. */
  @Override
  public RoundProtocol setup() {
    keys = new BgwKeySetup(sharing, party, prg, usePrss);
    return keys;
  }

  // ---- dealing with pairwise seeds ----

  /**
   * Deals {@code weight[wo]} times each of {@code m} secrets ({@code weight} null: weight one) with
   * fresh degree-t polynomials in one pass per share: writes the share of each party outside T_self
   * straight to its frame and adds this party's own share to {@code acc} from element {@code ao}
   * (null: the dealer keeps no share). The shares of T_self come from the pairwise seeds (see
   * {@link ShamirSharing#seedScale}) and are read as values of the weighted polynomial (uniform all
   * the same), so every receiver adds what it gets without scaling. The others are linear
   * combinations of the secret and the seeded values, with the weight folded into the secret's
   * coefficient, computed by the fused {@link Field#combine} kernel into a reused scratch array.
   *
   * <p>Over 2^127 − 1 at n = 3 every coefficient, weight folded in, is then ±u·2^s with a small u
   * (the weights of a multiplication are 3, −3 and 1), which the field multiplies by with two
   * 64-bit products: a dealing costs no 127-bit product at all, where scaling the secrets by the
   * weight first and combining with a Lagrange basis (one product per share) cost 3 at P_0 and P_1.
   */
  void deal(long[] secrets, int m, Outbox out, long[] weight, int wo, long[] acc, int ao) {
    deal(lane, secrets, m, out, null, 0, weight, wo, acc, ao);
  }

  /**
   * As above, drawing from {@code lane}; with {@code at} non-null the shares of party k are not
   * appended but written in place from word {@code at[k]} of {@code out}'s buffer on, as element
   * {@code from} on of a message reserved there ({@link Outbox#reserve}): for chunks of a kernel
   * split over threads.
   */
  void deal(
      BgwLane lane,
      long[] secrets,
      int m,
      Outbox out,
      int[] at,
      int from,
      long[] weight,
      int wo,
      long[] acc,
      int ao) {
    long[][] terms = new long[threshold + 1][];
    terms[0] = secrets;
    for (int j = 0; j < threshold; j++) {
      terms[j + 1] = lane.scratch(j + 1, m);
      lane.random(lane.toSeeded(sharing.seeded(party, j)), terms[j + 1], 0, m);
    }
    long[] buffer = lane.scratch(0, m);
    for (int k = 0; k < parties; k++) {
      long[] c = sharing.dealCoefficients[k];
      if (c == null) {
        continue;
      }
      c = weighted(c, weight, wo);
      if (k == party) {
        if (acc != null) {
          field.combine(terms, c, acc, ao, m, true);
        }
      } else if (at == null) {
        field.combine(terms, c, buffer, 0, m, false);
        out.write(k, buffer, 0, m * words);
      } else {
        field.combine(terms, c, buffer, 0, m, false);
        System.arraycopy(buffer, 0, out.buffer(k), at[k] + from * words, m * words);
      }
    }
  }

  /**
   * Whether {@link #dealProducts} applies: threshold one among three parties, where a dealer keeps
   * one share of its product, draws one from the pairwise seed and sends one.
   */
  boolean dealsProductsInOnePass() {
    return threshold == 1 && parties == 3;
  }

  /**
   * {@link #deal} of the products {@code a[from + i]·b[from + i]}, {@code i < m}, weighted by
   * {@code weight[wo]}, in one pass ({@link Field#dealProducts}): the product is used where it is
   * made, and the sent share is written straight into its place in the frame reserved at {@code at}
   * (where the frame's words lie on whole elements).
   */
  void dealProducts(
      BgwLane lane,
      long[] a,
      long[] b,
      int from,
      int m,
      Outbox out,
      int[] at,
      long[] weight,
      int wo,
      long[] acc) {
    long[] r = lane.scratch(1, m);
    lane.random(lane.toSeeded(sharing.seeded(party, 0)), r, 0, m);
    int other = 0;
    while (other == party || sharing.dealCoefficients[other] == null) {
      other++;
    }
    long[][] c = {
      weighted(sharing.dealCoefficients[party], weight, wo),
      weighted(sharing.dealCoefficients[other], weight, wo)
    };
    long[] scratch = lane.scratch(threshold + 1, m);
    int word = at[other] + from * words;
    if (word % words == 0) {
      field.dealProducts(a, b, from, r, c, acc, out.buffer(other), word / words, m, scratch);
      return;
    }
    long[] buffer = lane.scratch(0, m);
    field.dealProducts(a, b, from, r, c, acc, buffer, 0, m, scratch);
    System.arraycopy(buffer, 0, out.buffer(other), word, m * words);
  }

  /**
   * Dealing coefficients {@code c} with the weight {@code weight[wo]} folded into the secret's (a
   * copy), or {@code c} itself when there is no weight: the seeded values are read as values of the
   * weighted polynomial, so only the secret's coefficient changes.
   */
  private long[] weighted(long[] c, long[] weight, int wo) {
    if (weight == null) {
      return c;
    }
    long[] w = c.clone();
    field.mul(w, 0, weight, wo, w, 0, 1);
    return w;
  }

  /**
   * Adds this party's share of {@code m} values dealt by {@code dealer}, drawn from their seed, to
   * {@code acc} from element {@code ao}: the scaling by x_self (see {@link
   * ShamirSharing#seedScale}) and the addition in one pass. With {@code add} false the share is
   * drawn straight into {@code acc} instead (whatever it held), scaled there.
   */
  void addSeededShare(BgwLane lane, int dealer, long[] acc, int ao, int m, boolean add) {
    boolean scaled = sharing.seedScale != null && party != 0; // x_0 = 1
    if (!add) {
      lane.random(lane.fromDealer(dealer), acc, ao, m);
      if (scaled) {
        field.scale(acc, ao, sharing.seedScale, party, acc, ao, m);
      }
      return;
    }
    long[] s = lane.scratch(threshold + 1, m);
    lane.random(lane.fromDealer(dealer), s, 0, m);
    if (scaled) {
      field.scaleAdd(s, 0, sharing.seedScale, party, acc, ao, m);
    } else {
      field.add(acc, ao, s, 0, acc, ao, m);
    }
  }

  /** Draws this party's share of {@code m} values dealt by {@code dealer} into {@code out}. */
  void seededShare(int dealer, long[] out, int oo, int m) {
    field.random(keys.fromDealer(dealer), out, oo, m);
    if (sharing.seedScale != null && party != 0) { // x_0 = 1
      field.scale(out, oo, sharing.seedScale, party, out, oo, m);
    }
  }

  /**
   * A reused array of at least {@code m} elements for slot {@code slot} (0: outgoing shares, 1..t:
   * seeded shares, t + 1: shares drawn or received from other dealers, or secrets to deal, t + 2
   * and t + 3: temporaries of {@link BgwPrssBits}). Protocols use scratch only within one send or
   * receive call, so one set serves them all; it saves allocating and zeroing several arrays of the
   * batch's size per round.
   */
  long[] scratch(int slot, int m) {
    return lane.scratch(slot, m);
  }

  /**
   * The column last handed back by {@link #recycle} when it holds {@code m} elements, with its old
   * values (the caller overwrites or zeroes it), or null. A multiplication sums its own shares into
   * such a column while its frames travel, then adds it into the received frame that it keeps as
   * its result ({@link BgwReshare#receive}) and hands the column back: in a chain of rounds of one
   * size no result column is allocated and zeroed (8 MB per 10^6 elements over 2^61 − 1).
   */
  long[] spareColumn(int m) {
    long[] c = spareColumn;
    if (c == null || c.length != m * words) {
      return null;
    }
    spareColumn = null;
    return c;
  }

  /** Takes back a column that no one else holds, for {@link #spareColumn}. */
  void recycle(long[] column) {
    spareColumn = column;
  }

  // ---- splitting kernels over threads ----

  /** Elements per chunk below which a kernel is not split: a chunk must outweigh a hand-over. */
  static final int MIN_CHUNK = 1 << 14;

  Workers workers() {
    return workers;
  }

  /** The suite's own lane: the pairwise generators themselves and {@link #scratch}. */
  BgwLane lane() {
    return lane;
  }

  BgwKeySetup keys() {
    return keys;
  }

  /**
   * The split of a kernel over {@code m} elements that draws from the pairwise generators, ready to
   * run its {@link BgwSplit#chunks()} chunks; null when it runs on one thread (one thread
   * configured, a batch under two chunks, or a field other than the Mersenne fields, whose
   * rejection sampling would force the one-thread rerun every time).
   */
  BgwSplit split(int m) {
    int chunks = workers.chunks(m, MIN_CHUNK);
    if (chunks < 2 || !(field instanceof Mersenne61 || field instanceof Mersenne127)) {
      return null;
    }
    if (split == null) {
      split = new BgwSplit(this, workers.threads());
    }
    return split.begin() ? split : null;
  }

  // ---- interactive gates ----

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    return new BgwReshare(this, new int[] {owner}, null, values, length);
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    return ShamirMultiply.start(this, a, b);
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    return new BgwOpen(this, a.share, a.length, receiver);
  }

  @Override
  public RoundProtocol random(int length) {
    if (usePrss) {
      Shares r = new Shares(length, keys.prss().next(length), null);
      return RoundProtocol.finished(r);
    }
    // Each of t + 1 dealers deals a random sharing; their sum is unknown to any t parties.
    int[] dealers = new int[threshold + 1];
    for (int i = 0; i < dealers.length; i++) {
      dealers[i] = i;
    }
    long[] mine = null;
    if (party <= threshold) {
      mine = field.alloc(length);
      field.random(prg, mine, 0, length);
    }
    return new BgwReshare(this, dealers, null, mine, length);
  }

  /**
   * Each of P_0..P_t deals {@code length} integers uniform in [0, 2^bits) and every party sums the
   * t + 1 sharings: one round, no multiplication. At least one dealer is honest, so each sum is
   * that dealer's uniform integer plus values independent of it, and it lies below (t + 1)·2^bits.
   * This replaces composing {@code bits} dealt random bits, one multiplication each at t = 1.
   */
  @Override
  public RoundProtocol randomMasks(int length, int bits) {
    int[] dealers = new int[threshold + 1];
    for (int i = 0; i < dealers.length; i++) {
      dealers[i] = i;
    }
    return new BgwReshare(
        this, dealers, null, party <= threshold ? privateIntegers(length, bits) : null, length);
  }

  /** {@code m} uniformly random integers of this party in [0, 2^bits), packed (little-endian). */
  long[] privateIntegers(int m, int bits) {
    long[] out = field.alloc(m);
    prg.fill(out, 0, m * words);
    int full = bits / 64; // words kept whole
    long topMask = (1L << (bits % 64)) - 1; // bits kept of word number full (if any)
    for (int i = 0; i < m; i++) {
      for (int w = full; w < words; w++) {
        out[i * words + w] &= w == full ? topMask : 0;
      }
    }
    return out;
  }

  /**
   * At t = 1 with PRSS, {@link BgwPrssBits} (a PRSS bit XOR a dealt bit, two dealings fewer per
   * bit); otherwise, up to {@link BgwConfig#dealtBitsUpTo}, the XOR of t + 1 dealt bits, and above
   * it the square-root trick.
   */
  @Override
  public RoundProtocol randomBits(int length) {
    if (threshold <= config.dealtBitsUpTo()) {
      return threshold == 1 && usePrss
          ? new BgwPrssBits(this, length)
          : new BgwDealtBits(this, length);
    }
    return new BgwRandomBits(this, length);
  }

  /** {@code m} uniformly random bits of this party as packed field elements (0 or 1). */
  long[] privateBits(int m) {
    long[] out = field.alloc(m);
    privateBits(out, m);
    return out;
  }

  /** Writes {@code m} uniformly random bits of this party to {@code out[0, m)} (whole elements). */
  void privateBits(long[] out, int m) {
    long word = 0;
    for (int i = 0; i < m; i++) {
      if ((i & 63) == 0) {
        word = prg.nextLong();
      }
      out[i * words] = (word >>> (i & 63)) & 1;
      for (int w = 1; w < words; w++) {
        out[i * words + w] = 0;
      }
    }
  }

  /** The PRSS of this party; only when PRSS is in use. */
  Prss prss() {
    return keys.prss();
  }

  BgwPrssBits.Weights prssBitWeights() {
    if (prssBitWeights == null) {
      prssBitWeights = BgwPrssBits.Weights.of(this);
    }
    return prssBitWeights;
  }
}
