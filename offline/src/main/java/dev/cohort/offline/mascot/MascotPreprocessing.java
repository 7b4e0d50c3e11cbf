package dev.cohort.offline.mascot;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.net.Channel;
import dev.cohort.offline.ot.OtBatch;
import dev.cohort.offline.ot.PairwiseOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.MaterialException;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.suite.Shares;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * SPDZ preprocessing that the parties make among themselves with oblivious transfer: MASCOT
 * [KOS16]. One instance per party, over a {@link Channel} of its own; every party calls every
 * method with the same arguments in the same order (as the online engine and {@code DealerFiles}
 * draw material), and each call runs the protocol for that batch in lockstep and returns this
 * party's shares and MAC shares under its key share α_i, drawn uniformly by this party from its PRG
 * when it is created.
 *
 * <p>Security (active, dishonest majority, with abort): every value opened in a call is MAC-checked
 * ({@link MacChecks}) before the call returns anything; a cheat — a wrong Gilboa correction (a bad
 * triple, caught by the sacrifice), an inconsistent COPE row or a wrong MAC share (caught by the
 * authentication check or the MAC check of the openings), a seed that does not match its commitment
 * — throws {@link AbortException} naming the check at every honest party, and this instance refuses
 * every later call. A failed MAC check of the online phase ({@link #macCheckFailed}) may have
 * revealed α: this instance then refuses to make more material with it. α lives only in this object
 * and is never written anywhere, so a new instance (a new run) has a fresh key; a check interrupted
 * with σ_i out ends the run that holds this instance.
 *
 * <p>What each kind is made of:
 *
 * <ul>
 *   <li>Triples [KOS16, Π_Triple]: each party draws τ = {@value #TAU} candidates a ∈ F^τ and one b;
 *       {@link Gilboa} multiplies across every ordered pair; public random r, r̂ ∈ F^τ (joint coin
 *       toss after the products are fixed) combine them into (a, b, c) = (⟨r, a⟩, b, ⟨r, c⟩) and
 *       (â, b, ĉ) = (⟨r̂, a⟩, b, ⟨r̂, c⟩); every party authenticates its shares of a, b, c, â, ĉ
 *       ({@link Authentication}); for a random public s, ρ = s·a − â is opened and s·c − ĉ − ρ·b is
 *       checked to be zero through its MACs (the sacrifice), then everything opened is MAC-checked.
 *       Nine rounds on the channel, plus the OT extension's, whatever the batch.
 *   <li>Random elements: every party authenticates a random value of its own; the sum is the
 *       element (uniform if one party is honest).
 *   <li>Random bits: for a random element r and a triple, r² is computed by Beaver's method and
 *       opened (abort if 0); with p ≡ 3 (mod 4), 1/√(r²) = (r²)^((p−3)/4) and b = (r/√(r²) + 1)/2,
 *       a uniform bit as r/√(r²) = ±1 with the sign of r hidden.
 *   <li>Input masks of an owner: a random value the owner alone authenticates (its share is the
 *       value, every other share is 0); only the owner knows it.
 *   <li>Input bits of an owner: a random bit b (as above, so proven to be a bit) and an input mask
 *       r of the owner; b − r is opened and MAC-checked and the owner learns b = (b − r) + r. The
 *       online phase does not prove bitness ({@code SpdzRangeInput} relies on r ∈ {0, 1} by
 *       construction), so the offline phase must; an owner-authenticated bit would not be proven.
 * </ul>
 *
 * <p>Cost model, with k = bitLength(p), w = 64-bit words per element (2 over 2^127 − 1), n parties
 * and τ = {@value #TAU}, per triple and per party: k OTs as receiver from each peer and k as sender
 * to each (2k·(n − 1) OTs); sent to each peer k·τ·w words of Gilboa corrections, 5·k·w words of
 * COPE rows and w words of the sacrifice opening: ((τ + 5)·k + 1)·8w bytes, 16,272 per peer over
 * 2^127 − 1 (k = 127, w = 2) and 3,912 over 2^61 − 1 (k = 61, w = 1). The OTs come on top: the KOS
 * extension sends 16 bytes per OT from its receiver, 16k per triple and peer, so with the real OTs
 * 18,304 bytes per triple and peer over 2^127 − 1 and 4,888 over 2^61 − 1. Each protocol run (one
 * call of at most {@value #MAX_BATCH} items) adds a constant per peer: (k + n + 3)·8w + 312 bytes
 * (the authentication check's dummy COPE row of k elements and its opened y, three joint seeds by
 * commit-then-open, the MAC check's commitment, its opening of n + 2 σ's and its one-word
 * confirmation: 2,424 bytes over 2^127 − 1 with 2 parties), and the extension's 192 padding rows
 * and coin toss, about 3.2 KB. {@code MascotTrafficTest} checks these figures byte for byte. Local
 * work per triple and peer: about 3kτ + 3·5k field elements drawn or expanded and as many
 * additions. A random bit costs one triple, one random element (k·w words per peer) and three
 * openings; an input bit adds an input mask and one opening.
 *
 * <p>Batches of more than {@value #MAX_BATCH} items run as several protocol runs, to bound the
 * frames: at most about 166 MB (the COPE rows of a full run over 2^127 − 1), under the transports'
 * default frame limit of 256 MiB.
 */
public final class MascotPreprocessing implements SpdzPreprocessing {

  /** Candidate triples combined into each triple and its sacrifice. */
  public static final int TAU = 3;

  /** The most items one protocol run makes. */
  public static final int MAX_BATCH = 1 << 14;

  private static final BigInteger M61 = BigInteger.ONE.shiftLeft(61).subtract(BigInteger.ONE);
  private static final BigInteger M127 = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

  private final int words;
  private final int self;
  private final int parties;
  private final long[] alpha;
  private final Session session;
  private final TripleGeneration triples;
  private final BitGeneration bits;
  private String refusal; // why this instance makes no more material, or null

  /**
   * The preprocessing of {@code channel.myId()} over {@code field} (2^61 − 1 or 2^127 − 1). Runs
   * the base OTs of COPE now ({@code baseOts}: bitLength(p) per ordered pair, with the bits of this
   * party's fresh key share as choice bits), so every party constructs its instance at the same
   * time; {@code extension} supplies the OTs of the multiplications; {@code prg} (secure: {@link
   * Prg#secure()}) every random choice of this party.
   */
  public MascotPreprocessing(
      Field field, Channel channel, PairwiseOts baseOts, PairwiseOts extension, Prg prg) {
    this(field, channel, new Ots(baseOts, extension), prg, Deviation.NONE);
  }

  /** The base OTs and the extension, as one argument. */
  record Ots(PairwiseOts base, PairwiseOts extension) {}

  MascotPreprocessing(Field field, Channel channel, Ots ots, Prg prg, Deviation deviation) {
    BigInteger p = field.modulus();
    if (!p.equals(M61) && !p.equals(M127)) {
      throw new IllegalArgumentException(
          "MASCOT needs the field 2^61 - 1 or 2^127 - 1 (p = 3 mod 4 for the square roots of random"
              + " bits), got "
              + field.name());
    }
    if (channel.parties() < 2) {
      throw new IllegalArgumentException(
          "parties (" + channel.parties() + ") must be >= 2 for MASCOT");
    }
    this.words = field.words();
    this.self = channel.myId();
    this.parties = channel.parties();
    this.alpha = field.alloc(1);
    field.random(prg, alpha, 0, 1);
    int k = field.bitLength();
    long[] choices = Cope.choiceBits(alpha, k);
    long[][] all = new long[parties][];
    for (int q = 0; q < parties; q++) {
      all[q] = q == self ? null : choices;
    }
    OtBatch base = ots.base().transfer(k, all);
    Cope cope = new Cope(field, self, parties, alpha, base);
    Authentication authentication = new Authentication(field, self, parties, cope, prg);
    this.session = new Session(new Lockstep(channel), field, prg, alpha, authentication, deviation);
    Gilboa gilboa = new Gilboa(field, self, parties, new KeyExpansion(field));
    this.triples = new TripleGeneration(session, gilboa, ots.extension());
    this.bits = new BitGeneration(session, triples);
  }

  @Override
  public long[] macKeyShare() {
    return alpha.clone();
  }

  @Override
  public Triples triples(int count) {
    checkCount(count);
    List<Shares> a = new ArrayList<>();
    List<Shares> b = new ArrayList<>();
    List<Shares> c = new ArrayList<>();
    for (int from = 0; from < count; from += MAX_BATCH) {
      int m = Math.min(MAX_BATCH, count - from);
      Triples t = guarded(() -> triples.run(m));
      a.add(t.a());
      b.add(t.b());
      c.add(t.c());
    }
    return new Triples(concat(a), concat(b), concat(c));
  }

  @Override
  public Shares randomElements(int count) {
    checkCount(count);
    return chunked(
        count, m -> session.authenticatedRun(session.randomValues(m), m, session.everyone()));
  }

  @Override
  public InputMasks inputMasks(int owner, int count) {
    checkCount(count);
    checkOwner(owner);
    boolean[] owners = new boolean[parties];
    owners[owner] = true;
    List<Shares> shares = new ArrayList<>();
    List<Shares> values = new ArrayList<>();
    for (int from = 0; from < count; from += MAX_BATCH) {
      int m = Math.min(MAX_BATCH, count - from);
      long[] x = owner == self ? session.randomValues(m) : null;
      shares.add(guarded(() -> session.authenticatedRun(x, m, owners)));
      values.add(new Shares(m, x, null));
    }
    return new InputMasks(concat(shares), owner == self ? concat(values).share : null);
  }

  @Override
  public Shares randomBits(int count) {
    checkCount(count);
    return chunked(count, bits::run);
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    checkCount(count);
    checkOwner(owner);
    List<Shares> shares = new ArrayList<>();
    List<Shares> values = new ArrayList<>();
    for (int from = 0; from < count; from += MAX_BATCH) {
      int m = Math.min(MAX_BATCH, count - from);
      Shares random = randomBits(m);
      InputMasks masks = inputMasks(owner, m);
      long[] v = guarded(() -> bits.inputBits(random, masks, owner));
      shares.add(random);
      values.add(new Shares(m, v, null));
    }
    return new InputMasks(concat(shares), owner == self ? concat(values).share : null);
  }

  @Override
  public void macCheckFailed() {
    refusal =
        "a MAC check of the online phase failed with this MASCOT instance's MAC key: the key may be"
            + " known to a cheating party, so no more material is made with it";
  }

  // ---- helpers ---------------------------------------------------------------------------------

  private interface Run<T> {
    T run();
  }

  /** Runs {@code body}; on any failure this instance refuses later calls and tells its peers. */
  private <T> T guarded(Run<T> body) {
    if (refusal != null) {
      throw new MaterialException(refusal);
    }
    try {
      return body.run();
    } catch (RuntimeException e) {
      refusal = "an earlier MASCOT run of this instance failed: " + e.getMessage();
      if (e instanceof AbortException) {
        session.lockstep.channel().abort(e.getMessage());
      }
      throw e;
    }
  }

  private interface Chunk {
    Shares make(int m);
  }

  private Shares chunked(int count, Chunk chunk) {
    List<Shares> parts = new ArrayList<>();
    for (int from = 0; from < count; from += MAX_BATCH) {
      int m = Math.min(MAX_BATCH, count - from);
      parts.add(guarded(() -> chunk.make(m)));
    }
    return concat(parts);
  }

  /** The parts as one; empty (no protocol run) for none. */
  private Shares concat(List<Shares> parts) {
    if (parts.isEmpty()) {
      return new Shares(0, new long[0], new long[0]);
    }
    return Shares.concat(parts, words);
  }

  private static void checkCount(int count) {
    if (count < 0) {
      throw new IllegalArgumentException("count (" + count + ") must be >= 0");
    }
  }

  private void checkOwner(int owner) {
    if (owner < 0 || owner >= parties) {
      throw new IllegalArgumentException("owner (" + owner + ") must be in [0, " + parties + ")");
    }
  }
}
