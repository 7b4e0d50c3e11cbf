package dev.cohort.spdz;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.field.Mersenne127;
import dev.cohort.field.Mersenne61;
import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;
import dev.cohort.suite.AllOf;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The SPDZ online phase [DPSZ12, DKL+13]: additive sharing with information-theoretic MACs among n
 * ≥ 2 parties, secure with abort against any number of actively corrupt parties, given correct
 * preprocessing. Linear operations are local; multiplication (Beaver) and opening take one round
 * each; an input declared k-bit is in range by construction ({@link SpdzRangeInput}: its k bits are
 * input with k preprocessed input bits, one round); random elements and bits come from
 * preprocessing and take none.
 *
 * <p>Every opened value is remembered with this party's MAC share, and every input broadcast is
 * hashed. A {@link MacCheck} (three rounds, whatever the number of values) covers them all before
 * results leave the engine, and at the next round boundary once {@link SpdzConfig#checkEvery()}
 * values are unchecked. Set-up (one round, once per engine) commits to the first check's seed.
 *
 * <p><b>Check, then open</b> [DPSZ12, DKL+13]: a corrupt party may add δ to its share of any
 * opening, and a later product then carries δ times a secret. Only Beaver's d and e ({@link
 * BeaverMultiply}) and input broadcasts ({@link SpdzInput}, {@link SpdzRangeInput}) are masked by
 * fresh uniform elements or bits, so only they are checked lazily. Every {@link #open} (outputs,
 * openings to one party, the low bits and the statistically masked values of comparison, equality,
 * truncation and bit decomposition) sends this party's shares only once a MAC check covering
 * everything recorded before it started (opened values and broadcasts) has passed here. The
 * invariant: {@code passed ≥ needs} of every opening whose shares have left this party. The engine
 * asks for a check at every round boundary, right after that round's gates started ({@link
 * #check}): every opening that started in the round waits for the one check started then (or for
 * the one in flight, if it covers them), and the multiplications of those rounds go on. An opening
 * after unchecked values thus costs the check's three rounds more (its shares go in the round after
 * the check's last), one after unchecked input broadcasts only one round more ({@link
 * BroadcastCheck}), one with nothing unchecked no extra round. A 32-bit comparison of two inputs
 * with its output, over 2^127 − 1, took 10 rounds before this rule and takes 16 (a check of the
 * inputs and of the products of the mask's random bits before the masked value, one before the
 * output: 3 rounds each); an equality 10 and 17 (1 before its masked value, 3 before its second,
 * shorter one, 3 before the output).
 */
public final class SpdzSuite implements Suite {

  private final SpdzConfig config;
  private final Field field;
  private final int words;
  private final int party;
  private final int parties;
  private final Prg prg;
  private final Tamper tamper; // tests only; null otherwise
  final SpdzPreprocessing preprocessing;
  final long[] macKeyShare;
  final SpdzSharing sharing;
  private final OpenedValues unchecked = new OpenedValues();
  private final MessageDigest broadcasts = Hashing.sha256();
  private final long[] modulus; // little-endian words of p
  private final long[][] received; // see spare()
  private static final int POOL_SIZE = 8;
  private final List<long[]> pool = new ArrayList<>(); // see borrow()
  private boolean checkInFlight;
  // Counts of recorded batches (opened values and input broadcasts), for check-then-open: all
  // recorded so far, recorded before the check in flight (or the last one) started, covered by the
  // last check that passed, and the most any opening waiting to send needs covered.
  private long recorded;
  private long covered;
  private long passed;
  private long demanded;
  private AesCtrPrg coefficients; // a MAC check's, rekeyed per check: see coefficients()
  private long checks; // the number of the next check

  // This party's seed for the next check and everyone's commitments to theirs.
  long[] seed;
  long[] seedNonce;
  long[][] seedCommitments;

  private SpdzSuite(SpdzConfig config, int party, int parties, Prg prg, Tamper tamper) {
    this.config = config;
    this.field = config.field();
    this.words = field.words();
    this.party = party;
    this.parties = parties;
    this.prg = prg;
    this.tamper = tamper;
    this.received = new long[Math.max(1, parties - 1)][];
    this.preprocessing = config.preprocessing().open(field, party, parties);
    this.macKeyShare = preprocessing.macKeyShare();
    this.sharing = new SpdzSharing(field, party, macKeyShare);
    this.modulus = new long[words];
    for (int w = 0; w < words; w++) {
      modulus[w] = field.modulus().shiftRight(64 * w).longValue();
    }
  }

  /** SPDZ over {@code field} with the seeded in-process dealer: INSECURE, tests and benchmarks. */
  public static SuiteFactory factory(Field field, long insecureDealerSeed) {
    return factory(SpdzConfig.insecureDealer(field, insecureDealerSeed));
  }

  public static SuiteFactory factory(SpdzConfig config) {
    return factory(config, party -> null);
  }

  /** A factory whose party {@code p} misbehaves through {@code tampers.apply(p)}: tests only. */
  static SuiteFactory factory(SpdzConfig config, IntFunction<Tamper> tampers) {
    return new SuiteFactory() {
      @Override
      public String name() {
        return "spdz(" + config.field().name() + ", " + config.description() + ")";
      }

      @Override
      public Field field() {
        return config.field();
      }

      @Override
      public void validate(int parties) {
        if (parties < 2) {
          throw new IllegalArgumentException("SPDZ needs at least 2 parties, got " + parties);
        }
        if (parties > 1000) {
          throw new IllegalArgumentException("parties (" + parties + ") must be <= 1000");
        }
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        validate(parties);
        if (party < 0 || party >= parties) {
          throw new IllegalArgumentException(
              "party (" + party + ") must be in [0, " + parties + ")");
        }
        return new SpdzSuite(config, party, parties, prg, tampers.apply(party));
      }
    };
  }

  @Override
  public Field field() {
    return field;
  }

  @Override
  public int myId() {
    return party;
  }

  @Override
  public int parties() {
    return parties;
  }

  /** Opened values that no MAC check has covered yet. */
  long uncheckedCount() {
    return unchecked.count();
  }

  // ---- set-up and checks ----

  /**
   * The set-up round: commitments to the first MAC check's seed, and the parties' positions in
   * their preprocessing ({@link PositionAgreement}), side by side.
   */
  @Override
  public RoundProtocol setup() {
    RoundProtocol commitments =
        new RoundProtocol() {
          @Override
          public void send(int round, Outbox out) {
            sendSeedCommitment(out);
          }

          @Override
          public boolean receive(int round, Inbox in) {
            receiveSeedCommitments(in);
            return true;
          }
        };
    return new AllOf(List.of(commitments, new PositionAgreement(preprocessing, party, parties)));
  }

  /**
   * The MAC check to start now, if any: one an opening waits for (see the class javadoc), else one
   * at the end or once {@link SpdzConfig#checkEvery()} values are unchecked. One check runs at a
   * time, as each commits to the next one's seed in its last round. When an opening waits and only
   * input broadcasts are unchecked, their digests are compared alone, in one round ({@link
   * BroadcastCheck}).
   */
  @Override
  public RoundProtocol check(boolean end) {
    if (checkInFlight) {
      return null;
    }
    if (demanded <= passed) { // no opening waits
      if (unchecked.count() == 0 || !end && unchecked.count() < config.checkEvery()) {
        return null;
      }
    }
    if (seedCommitments == null) {
      throw new IllegalStateException("the SPDZ set-up did not run before a MAC check");
    }
    long[] digest = broadcastDigest();
    checkInFlight = true;
    covered = recorded;
    if (unchecked.count() == 0) { // only input broadcasts: an opening waits for their digests
      return new BroadcastCheck(this, checks, digest);
    }
    return new MacCheck(this, checks++, unchecked.take(), digest);
  }

  void checkPassed() {
    checkInFlight = false;
    passed = covered;
  }

  /**
   * Called by an opening as it starts: returns what a check must have covered before it may send
   * its shares (everything recorded so far), and makes the next {@link #check} start one if none in
   * flight covers it.
   */
  long openingStarts() {
    demanded = Math.max(demanded, recorded);
    return recorded;
  }

  /**
   * Whether an opening that {@link #openingStarts} returned {@code needs} to may send its shares:
   * whether a check covering it has passed. When not, a check must be in flight (the engine asks
   * for one at every round boundary, before any protocol sends): otherwise the opening would wait
   * forever.
   */
  boolean mayOpen(long needs) {
    if (passed >= needs) {
      return true;
    }
    if (!checkInFlight) {
      throw new IllegalStateException(
          "an SPDZ opening waits for a MAC check that was not started; the engine must call"
              + " Suite.check(false) at every round boundary");
    }
    return false;
  }

  /** True while a MAC check runs: another cannot start before it has passed. */
  boolean checkInFlight() {
    return checkInFlight;
  }

  /** The number of MAC checks started so far (passed, unless one is in flight). */
  long checksStarted() {
    return checks;
  }

  /**
   * The generator of a MAC check's coefficients: stream {@code index} under {@code key}. One
   * generator is rekeyed for every check (checks run one at a time, and each draws all its
   * coefficients before the next starts): keying a new one looks up a cipher, which cost about 3 %
   * of a batch of 1000 SPDZ sessions.
   */
  Prg coefficients(byte[] key, long index) {
    if (coefficients == null) {
      coefficients = new AesCtrPrg(key, index);
    } else {
      coefficients.rekey(key, index);
    }
    return coefficients;
  }

  /** Draws this party's seed for the next check and sends everyone a commitment to it. */
  void sendSeedCommitment(Outbox out) {
    seed = new long[] {prg.nextLong(), prg.nextLong()};
    seedNonce = nonce();
    long[] commitment = Hashing.commit("seed", party, checks, seed, seedNonce);
    for (int k = 0; k < parties; k++) {
      if (k != party) {
        out.write(k, commitment, 0, commitment.length);
      }
    }
  }

  void receiveSeedCommitments(Inbox in) {
    long[][] commitments = new long[parties][];
    for (int k = 0; k < parties; k++) {
      if (k != party) {
        commitments[k] = new long[Hashing.DIGEST_WORDS];
        in.read(k, commitments[k], 0, Hashing.DIGEST_WORDS);
      }
    }
    seedCommitments = commitments;
  }

  long[] nonce() {
    long[] nonce = new long[4];
    prg.fill(nonce, 0, nonce.length);
    return nonce;
  }

  private long[] broadcastDigest() {
    try {
      return Hashing.words(((MessageDigest) broadcasts.clone()).digest());
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("SHA-256 digest cannot be cloned", e);
    }
  }

  // ---- helpers of the interactive gates ----

  /** Sends {@code count} packed elements of {@code values} to every other party. */
  void sendToAll(Tamper.Message message, Outbox out, long[] values, int count) {
    int n = count * words;
    for (int k = 0; k < parties; k++) {
      if (k != party) {
        out.write(k, outgoing(message, k, values, n, count), 0, n);
      }
    }
  }

  /** {@code values} as this party sends them to {@code peer}: changed only by a test's tamper. */
  long[] outgoing(Tamper.Message message, int peer, long[] values, int words, int count) {
    if (tamper == null) {
      return values;
    }
    long[] copy = Arrays.copyOf(values, words);
    tamper.beforeSend(message, peer, copy, count);
    return copy;
  }

  /** Reads every other party's {@code count} shares and returns their sum with {@code own}. */
  long[] sumShares(Inbox in, long[] own, int count) {
    return sumShares(in, own, count, field.alloc(count));
  }

  /** As above, into {@code sum} (which may hold anything), and returns it. */
  long[] sumShares(Inbox in, long[] own, int count, long[] sum) {
    if (field instanceof Mersenne127) {
      return sumShares127(in, own, count, sum);
    }
    long[] addend = own; // the first peer's shares are added to own into sum: no copy of own
    for (int k = 0; k < parties; k++) {
      if (k != party) {
        int at = takeElements(in, k, count); // in place where the frame allows: no copy
        field.add(addend, 0, in.elements(), at, sum, 0, count);
        addend = sum;
      }
    }
    return sum;
  }

  /** {@link #sumShares} over 2^127 − 1: see {@link PeerShares127}. */
  private long[] sumShares127(Inbox in, long[] own, int count, long[] sum) {
    PeerShares127 peers = new PeerShares127(this, in, count);
    peers.sum(own, sum, 0, count);
    peers.check();
    return sum;
  }

  /**
   * The spare array for {@link Inbox#takeElements} of {@code count} elements of {@code peer}: none
   * where the elements lie in place in the frame, as they nearly always do; else a buffer reused
   * from one opening to the next (one party's gates run on one thread, and nothing keeps a
   * reference to it), one per {@code slot} (from 0), as the shares of all peers of an opening are
   * summed in one pass.
   */
  long[] spare(Inbox in, int peer, int count, int slot) {
    if (in.aligned(peer, words)) {
      return null; // not touched
    }
    if (received[slot] == null || received[slot].length < count * words) {
      received[slot] = field.alloc(count);
    }
    return received[slot];
  }

  /** Reads {@code count} packed elements from {@code peer} into {@code dst}, checked. */
  void readElements(Inbox in, int peer, long[] dst, int count) {
    int at = takeElements(in, peer, count);
    System.arraycopy(in.elements(), at * words, dst, 0, count * words);
  }

  /**
   * Consumes {@code count} packed elements of {@code peer}'s frame and checks that each is
   * canonical, in [0, p): the field kernels assume it, and a value outside the field could pass as
   * a congruent one. A peer that sends one is misbehaving. Returns their element offset in {@link
   * Inbox#elements()} (the frame itself where possible, see {@link Inbox#takeElements}).
   */
  int takeElements(Inbox in, int peer, int count) {
    int off = in.takeElements(peer, count, words, spare(in, peer, count, 0));
    long[] taken = in.elements();
    if (field instanceof Mersenne61 && SpdzKernels.allCanonical61(taken, off, count)
        || field instanceof Mersenne127 && SpdzKernels.allCanonical127(taken, off, count)) {
      return off;
    }
    checkCanonical(taken, off, peer, count);
    return off;
  }

  /**
   * Throws the abort naming the first of {@code count} elements from {@code off} outside [0, p).
   */
  void checkCanonical(long[] taken, int off, int peer, int count) {
    for (int i = 0; i < count; i++) {
      if (!canonical(taken, off + i)) {
        throw new AbortException(
            PartyId.of(peer)
                + " sent a value outside the field "
                + field.name()
                + " (element "
                + i
                + " of "
                + count
                + "); a party is misbehaving or the parties use different fields");
      }
    }
  }

  private boolean canonical(long[] a, int i) {
    for (int w = words - 1; w >= 0; w--) {
      int c = Long.compareUnsigned(a[i * words + w], modulus[w]);
      if (c != 0) {
        return c < 0;
      }
    }
    return false; // equal to p
  }

  void recordOpened(long[] values, long[] macs, int count) {
    unchecked.add(values, macs, count, false);
    recorded += count > 0 ? 1 : 0;
  }

  /** As {@link #recordOpened}, for two arrays from {@link #borrow} that the check gives back. */
  void recordOpenedPooled(long[] values, long[] macs, int count) {
    unchecked.add(values, macs, count, true);
    recorded += count > 0 ? 1 : 0;
  }

  /**
   * An array of exactly {@code count} elements whose contents are undefined (old shares): the
   * caller overwrites all of it. Reused from {@link #giveBack}: large columns allocated afresh for
   * every multiplication cost their zeroing, page faults and (past half a G1 region) humongous
   * allocations; one party's gates run on one thread, so the pool needs no lock.
   */
  long[] borrow(int count) {
    int length = count * words;
    for (int i = pool.size() - 1; i >= 0; i--) {
      if (pool.get(i).length == length) {
        return pool.remove(i);
      }
    }
    return new long[length];
  }

  /** Hands back an array from {@link #borrow} that nothing references any more. */
  void giveBack(long[] a) {
    if (pool.size() == POOL_SIZE) {
      pool.remove(0); // the oldest goes to the garbage collector
    }
    pool.add(a);
  }

  void recordBroadcast(int owner, long[] values, int count) {
    Hashing.update(broadcasts, owner);
    Hashing.update(broadcasts, count);
    Hashing.update(broadcasts, values, 0, count * words);
    recorded += count > 0 ? 1 : 0;
  }

  /**
   * As {@link #recordBroadcast}, for {@code bits} bits packed 64 a word ({@link SpdzRangeInput}):
   * every word as received, unused high bits of the last included, so that an owner who sends
   * different words to different parties is caught.
   */
  void recordBroadcastWords(int owner, long[] packed, int bits) {
    Hashing.update(broadcasts, owner);
    Hashing.update(broadcasts, -1 - bits); // negative: never the count of an element broadcast
    Hashing.update(broadcasts, packed, 0, SpdzRangeInput.packedWords(bits));
    recorded += bits > 0 ? 1 : 0;
  }

  // ---- local operations ----

  @Override
  public Shares constant(long[] values, int length) {
    return sharing.constant(values, length);
  }

  @Override
  public Shares add(Shares a, Shares b) {
    return sharing.add(a, b);
  }

  @Override
  public Shares sub(Shares a, Shares b) {
    return sharing.sub(a, b);
  }

  @Override
  public Shares negate(Shares a) {
    return sharing.negate(a);
  }

  @Override
  public Shares addConstant(Shares a, long[] c, int co) {
    return sharing.addConstant(a, c, co);
  }

  @Override
  public Shares scale(Shares a, long[] c, int co) {
    return sharing.scale(a, c, co);
  }

  @Override
  public Shares sum(Shares a) {
    return sharing.sum(a);
  }

  // ---- interactive operations ----

  @Override
  public RoundProtocol input(int owner, long[] values, int length) {
    return new SpdzInput(this, owner, values, length);
  }

  /**
   * Inputs declared {@code bits}-bit are composed of {@code bits} authenticated bits each, so they
   * are in range whatever their owner sends ({@link SpdzRangeInput}); the three-argument {@link
   * #input(int, long[], int)} guarantees no range.
   */
  @Override
  public RoundProtocol input(int owner, long[] values, int length, int bits) {
    if (length == 0) {
      return input(owner, values, length);
    }
    return SpdzRangeInput.of(this, owner, values, length, bits);
  }

  @Override
  public RoundProtocol multiply(Shares a, Shares b) {
    return new BeaverMultiply(this, a, b);
  }

  @Override
  public RoundProtocol open(Shares a, int receiver) {
    return new SpdzOpen(this, a, receiver);
  }

  @Override
  public RoundProtocol random(int length) {
    return RoundProtocol.finished(preprocessing.randomElements(length));
  }

  @Override
  public RoundProtocol randomBits(int length) {
    return RoundProtocol.finished(preprocessing.randomBits(length));
  }
}
