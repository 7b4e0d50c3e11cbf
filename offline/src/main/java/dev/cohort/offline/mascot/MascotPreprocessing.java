package dev.cohort.offline.mascot;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.net.Channel;
import dev.cohort.offline.ot.OtBatch;
import dev.cohort.offline.ot.PairwiseOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.MaterialException;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Shares;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
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
 * revealed α: this instance then refuses to make more material with it.
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
 *       Eight rounds on the channel, plus the OT extension's, whatever the batch.
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
 * COPE rows and w words of the sacrifice opening: ((τ + 5)·k + 1)·8w bytes, 16.3 KB per peer over
 * 2^127 − 1 (k = 127, w = 2) and 3.9 KB over 2^61 − 1 (k = 61, w = 1), plus per call a constant of
 * coin tosses and σ commitments. Local work per triple and peer: about 3kτ + 3·5k field elements
 * drawn or expanded and as many additions. A random bit costs one triple, one random element (k·w
 * words per peer) and three openings; an input bit adds an input mask and one opening.
 *
 * <p>Batches of more than {@value #MAX_BATCH} items run as several protocol runs, to bound the
 * frames (about 16 KB per triple and peer over 2^127 − 1).
 */
public final class MascotPreprocessing implements SpdzPreprocessing {

  /** Candidate triples combined into each triple and its sacrifice. */
  public static final int TAU = 3;

  /** The most items one protocol run makes. */
  public static final int MAX_BATCH = 1 << 14;

  private static final BigInteger M61 = BigInteger.ONE.shiftLeft(61).subtract(BigInteger.ONE);
  private static final BigInteger M127 = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);

  private final Field field;
  private final int words;
  private final int self;
  private final int parties;
  private final Lockstep lockstep;
  private final PairwiseOts extension;
  private final Prg prg;
  private final long[] alpha;
  private final Authentication authentication;
  private final Gilboa gilboa;
  private final Deviation deviation;
  private long runs;
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
    this.field = field;
    this.words = field.words();
    this.self = channel.myId();
    this.parties = channel.parties();
    this.lockstep = new Lockstep(channel);
    this.extension = ots.extension();
    this.prg = prg;
    this.deviation = deviation;
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
    this.authentication = new Authentication(field, self, parties, cope, prg);
    this.gilboa = new Gilboa(field, self, parties, new KeyExpansion(field));
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
      Triples t = guarded(() -> tripleRun(m));
      a.add(t.a());
      b.add(t.b());
      c.add(t.c());
    }
    return new Triples(concat(a), concat(b), concat(c));
  }

  @Override
  public Shares randomElements(int count) {
    checkCount(count);
    return chunked(count, m -> authenticatedRun(randomValues(m), m, everyone()));
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
      long[] x = owner == self ? randomValues(m) : null;
      shares.add(guarded(() -> authenticatedRun(x, m, owners)));
      values.add(new Shares(m, x, null));
    }
    return new InputMasks(concat(shares), owner == self ? concat(values).share : null);
  }

  @Override
  public Shares randomBits(int count) {
    checkCount(count);
    return chunked(count, this::bitRun);
  }

  @Override
  public InputMasks inputBits(int owner, int count) {
    checkCount(count);
    checkOwner(owner);
    List<Shares> shares = new ArrayList<>();
    List<Shares> values = new ArrayList<>();
    for (int from = 0; from < count; from += MAX_BATCH) {
      int m = Math.min(MAX_BATCH, count - from);
      Shares bits = randomBits(m);
      InputMasks masks = inputMasks(owner, m);
      long[] v = guarded(() -> inputBitRun(bits, masks, owner));
      shares.add(bits);
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

  // ---- protocol runs ---------------------------------------------------------------------------

  /** One run of Π_Triple for m triples. */
  private Triples tripleRun(int m) {
    long run = runs++;
    JointCoins coins = new JointCoins(lockstep, prg, run, 3); // combine, check + sacrifice, MAC
    long[] a = randomValues(TAU * m);
    long[] b = randomValues(m);
    Gilboa.Product product = gilboa.start(extension, a, b, m, TAU, lockstep.out());
    coins.writeCommitments();
    Inbox in = lockstep.exchange();
    long[] c = product.finish(in); // read in the order written: corrections, then commitments
    coins.readCommitments(in);

    coins.writeOpening(0);
    Prg combine = coins.readOpening(0, lockstep.exchange());
    long[] x = combined(combine, a, b, c, m); // a, b, c, â, ĉ

    Authentication.Batch auth = authentication.start(x, 5 * m, everyone(), lockstep);
    auth.receive(lockstep.exchange());

    coins.writeOpening(1);
    Prg check = coins.readOpening(1, lockstep.exchange());
    long[] rho = auth.writeCheck(check, lockstep);
    long[] s = field.alloc(m);
    field.random(check, s, 0, m);
    Shares all = auth.sum(0, 5 * m);
    // ρ = s·a − â, opened
    long[] opened = field.alloc(m);
    long[] openedMacs = field.alloc(m);
    field.mul(s, 0, all.share, 0, opened, 0, m);
    field.sub(opened, 0, all.share, 3 * m, opened, 0, m);
    field.mul(s, 0, all.mac, 0, openedMacs, 0, m);
    field.sub(openedMacs, 0, all.mac, 3 * m, openedMacs, 0, m);
    deviation.openingShares(opened, openedMacs);
    lockstep.broadcast(opened, 0, m * words);
    in = lockstep.exchange();
    MacChecks checks = new MacChecks(field, alpha, prg);
    auth.readCheck(rho, in, checks);
    long[] sacrifice = sumOpened(in, opened, m);
    checks.add(
        "MAC check of the sacrifice openings failed: a party sent a wrong share or MAC share",
        sacrifice,
        openedMacs,
        m);
    // MAC shares of s·c − ĉ − ρ·b, claimed to be zero
    long[] zero = field.alloc(m);
    long[] t = field.alloc(m);
    field.mul(s, 0, all.mac, 2 * m, zero, 0, m);
    field.sub(zero, 0, all.mac, 4 * m, zero, 0, m);
    field.mul(sacrifice, 0, all.mac, m, t, 0, m);
    field.sub(zero, 0, t, 0, zero, 0, m);
    checks.add(
        "sacrifice check failed: a triple was wrong (a party sent a wrong multiplication"
            + " correction, or altered its shares)",
        null,
        zero,
        m);
    checks.run(lockstep, coins, 2, run);
    return new Triples(all.slice(0, m, words), all.slice(m, m, words), all.slice(2 * m, m, words));
  }

  /**
   * (a, b, c, â, ĉ) of this party, 5m elements in that order: a = ⟨r, a⟩, c = ⟨r, c⟩, â = ⟨r̂, a⟩,
   * ĉ = ⟨r̂, c⟩ with r, r̂ ∈ F^τ per triple from the joint {@code coins}.
   */
  private long[] combined(Prg coins, long[] a, long[] b, long[] c, int m) {
    long[] r = field.alloc(2 * TAU * m);
    field.random(coins, r, 0, 2 * TAU * m);
    long[] x = field.alloc(5 * m);
    long[] product = field.alloc(TAU * m);
    System.arraycopy(b, 0, x, m * words, m * words);
    long[][] sources = {a, c, a, c};
    int[] targets = {0, 2, 3, 4};
    for (int i = 0; i < 4; i++) {
      int ro = i < 2 ? 0 : TAU * m;
      field.mul(r, ro, sources[i], 0, product, 0, TAU * m);
      for (int j = 0; j < m; j++) {
        field.sum(product, TAU * j, TAU, x, targets[i] * m + j);
      }
    }
    return x;
  }

  /**
   * One run authenticating the values {@code x} of every owner (m each; null at a non-owner) and
   * checking them; this party's sharing of their sum.
   */
  private Shares authenticatedRun(long[] x, int m, boolean[] owners) {
    long run = runs++;
    JointCoins coins = new JointCoins(lockstep, prg, run, 2); // check, MAC
    Authentication.Batch auth = authentication.start(x, m, owners, lockstep);
    coins.writeCommitments();
    Inbox in = lockstep.exchange();
    auth.receive(in);
    coins.readCommitments(in);
    coins.writeOpening(0);
    Prg check = coins.readOpening(0, lockstep.exchange());
    long[] rho = auth.writeCheck(check, lockstep);
    Shares shares = auth.sum(0, m);
    in = lockstep.exchange();
    MacChecks checks = new MacChecks(field, alpha, prg);
    auth.readCheck(rho, in, checks);
    checks.run(lockstep, coins, 1, run);
    return shares;
  }

  /** m random bits from m triples and m random elements. */
  private Shares bitRun(int m) {
    Triples t = tripleRun(m);
    Shares r = authenticatedRun(randomValues(m), m, everyone());
    long run = runs++;
    JointCoins coins = new JointCoins(lockstep, prg, run, 1);
    // Beaver: d = r − a, e = r − b
    long[] de = field.alloc(2 * m);
    long[] deMacs = field.alloc(2 * m);
    field.sub(r.share, 0, t.a().share, 0, de, 0, m);
    field.sub(r.share, 0, t.b().share, 0, de, m, m);
    field.sub(r.mac, 0, t.a().mac, 0, deMacs, 0, m);
    field.sub(r.mac, 0, t.b().mac, 0, deMacs, m, m);
    deviation.openingShares(de, deMacs);
    lockstep.broadcast(de, 0, 2 * m * words);
    coins.writeCommitments();
    Inbox in = lockstep.exchange();
    long[] deOpen = sumOpened(in, de, 2 * m);
    coins.readCommitments(in);
    MacChecks checks = new MacChecks(field, alpha, prg);
    String why = "MAC check of the random-bit openings failed: a party sent a wrong share";
    checks.add(why, deOpen, deMacs, 2 * m);
    // r² = c + d·b + e·a + d·e
    Shares square = new Shares(m, t.c().share.clone(), t.c().mac.clone());
    long[] tmp = field.alloc(m);
    long[] tmpMac = field.alloc(m);
    field.mul(deOpen, 0, t.b().share, 0, tmp, 0, m);
    field.add(square.share, 0, tmp, 0, square.share, 0, m);
    field.mul(deOpen, 0, t.b().mac, 0, tmpMac, 0, m);
    field.add(square.mac, 0, tmpMac, 0, square.mac, 0, m);
    field.mul(deOpen, m, t.a().share, 0, tmp, 0, m);
    field.add(square.share, 0, tmp, 0, square.share, 0, m);
    field.mul(deOpen, m, t.a().mac, 0, tmpMac, 0, m);
    field.add(square.mac, 0, tmpMac, 0, square.mac, 0, m);
    field.mul(deOpen, 0, deOpen, m, tmp, 0, m);
    addPublic(square, tmp);
    lockstep.broadcast(square.share, 0, m * words);
    long[] squares = sumOpened(lockstep.exchange(), square.share, m);
    checks.add(why, squares, square.mac, m);
    checks.run(lockstep, coins, 0, run);
    return bitsFromSquares(r, squares, m);
  }

  /** b = (r·(r²)^((p−3)/4) + 1)/2, after the openings were checked. */
  private Shares bitsFromSquares(Shares r, long[] squares, int m) {
    BigInteger exponent = field.modulus().subtract(BigInteger.valueOf(3)).shiftRight(2);
    long[] inverseRoots = field.alloc(m);
    long[] zero = field.alloc(1);
    for (int j = 0; j < m; j++) {
      if (field.equal(squares, j, zero, 0)) {
        throw new AbortException(
            "MASCOT random bits: an opened square was 0 (probability 1/p for honest parties):"
                + " start again with fresh material");
      }
      field.pow(squares, j, exponent, inverseRoots, j);
    }
    Shares bits = new Shares(m, field.alloc(m), field.alloc(m));
    field.mul(r.share, 0, inverseRoots, 0, bits.share, 0, m);
    field.mul(r.mac, 0, inverseRoots, 0, bits.mac, 0, m);
    long[] ones = field.alloc(m);
    for (int j = 0; j < m; j++) {
      field.encode(1, ones, j);
    }
    addPublic(bits, ones);
    long[] half = field.alloc(1);
    field.encode(2, half, 0);
    field.inverse(half, 0, half, 0);
    field.scale(bits.share, 0, half, 0, bits.share, 0, m);
    field.scale(bits.mac, 0, half, 0, bits.mac, 0, m);
    return bits;
  }

  /** Opens bit − mask (MAC-checked); returns the bits' values at the owner, null elsewhere. */
  private long[] inputBitRun(Shares bits, InputMasks masks, int owner) {
    int m = bits.length;
    long run = runs++;
    JointCoins coins = new JointCoins(lockstep, prg, run, 1);
    long[] e = field.alloc(m);
    long[] eMacs = field.alloc(m);
    field.sub(bits.share, 0, masks.shares().share, 0, e, 0, m);
    field.sub(bits.mac, 0, masks.shares().mac, 0, eMacs, 0, m);
    deviation.openingShares(e, eMacs);
    lockstep.broadcast(e, 0, m * words);
    coins.writeCommitments();
    Inbox in = lockstep.exchange();
    long[] opened = sumOpened(in, e, m);
    coins.readCommitments(in);
    MacChecks checks = new MacChecks(field, alpha, prg);
    checks.add(
        "MAC check of the input-bit openings failed: a party sent a wrong share", opened, eMacs, m);
    checks.run(lockstep, coins, 0, run);
    if (owner != self) {
      return null;
    }
    long[] values = field.alloc(m);
    field.add(opened, 0, masks.values(), 0, values, 0, m);
    return values;
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** Adds public values: to party 0's share, and α_i·v to every MAC share. */
  private void addPublic(Shares x, long[] v) {
    if (self == 0) {
      field.add(x.share, 0, v, 0, x.share, 0, x.length);
    }
    field.scaleAdd(v, 0, alpha, 0, x.mac, 0, x.length);
  }

  /** Σ of every party's shares read from {@code in} and this party's {@code own}. */
  private long[] sumOpened(Inbox in, long[] own, int m) {
    long[] sum = own.clone();
    long[] peer = field.alloc(m);
    for (int q = 0; q < parties; q++) {
      if (q != self) {
        in.read(q, peer, 0, m * words);
        field.add(sum, 0, peer, 0, sum, 0, m);
      }
    }
    return sum;
  }

  private long[] randomValues(int m) {
    long[] x = field.alloc(m);
    field.random(prg, x, 0, m);
    return x;
  }

  private boolean[] everyone() {
    boolean[] all = new boolean[parties];
    Arrays.fill(all, true);
    return all;
  }

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
        lockstep.channel().abort(e.getMessage());
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
