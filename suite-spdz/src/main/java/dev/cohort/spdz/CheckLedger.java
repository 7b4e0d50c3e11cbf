package dev.cohort.spdz;

import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.security.MessageDigest;
import java.util.List;

/**
 * One party's record of what its MAC checks must cover, and the rule of when they run: every opened
 * value with this party's MAC share of it, a running digest of every input broadcast, the seed
 * committed to for the next check, and the counts that decide check, then open. The openings,
 * multiplications and inputs record here; {@link MacCheck} and {@link BroadcastCheck} take what
 * they cover from here ({@link #start}) and report here when they passed. One check runs at a time,
 * as each commits to the next one's seed in its last round; a MAC check runs before results leave
 * the engine, at the next round boundary once {@link SpdzConfig#checkEvery()} values are unchecked,
 * and whenever an opening waits.
 *
 * <p><b>Check, then open</b> [DPSZ12, DKL+13]: a corrupt party may add δ to its share of any
 * opening, and a later product then carries δ times a secret. Only Beaver's d and e ({@link
 * BeaverMultiply}) and input broadcasts ({@link SpdzInput}, {@link SpdzRangeInput}) are masked by
 * fresh uniform elements or bits, so only they are checked lazily. Every {@link SpdzOpen} (outputs,
 * openings to one party, the low bits and the statistically masked values of comparison, equality,
 * truncation and bit decomposition) sends this party's shares only once a MAC check covering
 * everything recorded before it started (opened values and broadcasts) has passed here. The
 * invariant: {@code passed ≥ needs} of every opening whose shares have left this party, where
 * {@code needs} counts the batches recorded before it started ({@link #openingStarts}, {@link
 * #mayOpen}). The engine asks for a check at every round boundary, right after that round's gates
 * started ({@link #start}): every opening that started in the round waits for the one check started
 * then (or for the one in flight, if it covers them), and the multiplications of those rounds go
 * on. An opening after unchecked values thus costs the check's three rounds more (its shares go in
 * the round after the check's last), one after unchecked input broadcasts only one round more
 * ({@link BroadcastCheck}), one with nothing unchecked no extra round. A 32-bit comparison of two
 * inputs with its output, over 2^127 − 1, took 10 rounds before this rule and takes 16 (a check of
 * the inputs and of the products of the mask's random bits before the masked value, one before the
 * output: 3 rounds each); an equality 10 and 17 (1 before its masked value, 3 before its second,
 * shorter one, 3 before the output).
 */
final class CheckLedger {

  private final int self;
  private final int parties;
  private final int words;
  private final int checkEvery;
  private final Prg prg; // this party's seeds and commitment nonces
  private final ColumnPool pool; // where pooled opened values go once a check has read them
  private final OpenedValues unchecked = new OpenedValues();
  private final MessageDigest broadcasts = Hashing.sha256();
  private boolean checkInFlight;
  // Counts of recorded batches (opened values and input broadcasts), for check-then-open: all
  // recorded so far, recorded before the check in flight (or the last one) started, covered by the
  // last check that passed, and the most any opening waiting to send needs covered.
  private long recorded;
  private long covered;
  private long passed;
  private long demanded;
  private long checks; // the number of the next MAC check
  private AesCtrPrg coefficients; // a MAC check's, rekeyed per check: see coefficients()
  // This party's seed for the next check and everyone's commitments to theirs.
  private long[] seed;
  private long[] seedNonce;
  private long[][] seedCommitments;

  /** The seed of a check: this party's, the nonce of its commitment, everyone's commitments. */
  record Seed(long[] value, long[] nonce, long[][] commitments) {}

  /**
   * A check to run now: its number, the opened values it covers (none: only input broadcasts, see
   * {@link BroadcastCheck}), this party's digest of the input broadcasts, and its seed.
   */
  record Check(long index, List<OpenedValues.Batch> batches, long[] digest, Seed seed) {

    /** The number of opened values covered. */
    long count() {
      long total = 0;
      for (OpenedValues.Batch b : batches) {
        total += b.count();
      }
      return total;
    }
  }

  /**
   * The ledger of party {@code self} of {@code parties} under {@code config} ({@link
   * SpdzConfig#checkEvery()}, the field's width), drawing seeds and nonces from {@code prg}.
   */
  CheckLedger(SpdzConfig config, int self, int parties, Prg prg, ColumnPool pool) {
    this.self = self;
    this.parties = parties;
    this.words = config.field().words();
    this.checkEvery = config.checkEvery();
    this.prg = prg;
    this.pool = pool;
  }

  // ---- what the gates record ----

  void recordOpened(long[] values, long[] macs, int count) {
    unchecked.add(values, macs, count, false);
    recorded += count > 0 ? 1 : 0;
  }

  /**
   * As {@link #recordOpened}, for two arrays from the {@link ColumnPool}: they go back to it once
   * the check that covers them has read them.
   */
  void recordOpenedPooled(long[] values, long[] macs, int count) {
    unchecked.add(values, macs, count, true);
    recorded += count > 0 ? 1 : 0;
  }

  /** Hashes {@code count} packed elements that {@code owner} broadcast. */
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

  // ---- check, then open ----

  /**
   * Called by an opening as it starts: returns what a check must have covered before it may send
   * its shares (everything recorded so far), and makes the next {@link #start} start one if none in
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

  // ---- the checks' lifecycle ----

  /**
   * The check to start now, if any: one an opening waits for, else one at the end ({@code end}) or
   * once {@link SpdzConfig#checkEvery()} values are unchecked; null while one is in flight. When an
   * opening waits and only input broadcasts are unchecked, the check covers no opened value ({@link
   * BroadcastCheck}) and leaves the seed and the check number to the next MAC check.
   */
  Check start(boolean end) {
    if (checkInFlight) {
      return null;
    }
    if (demanded <= passed) { // no opening waits
      if (unchecked.count() == 0 || !end && unchecked.count() < checkEvery) {
        return null;
      }
    }
    if (seedCommitments == null) {
      throw new IllegalStateException("the SPDZ set-up did not run before a MAC check");
    }
    long[] digest = broadcastDigest();
    checkInFlight = true;
    covered = recorded;
    Seed committed = new Seed(seed, seedNonce, seedCommitments);
    if (unchecked.count() == 0) {
      return new Check(checks, List.of(), digest, committed);
    }
    return new Check(checks++, unchecked.take(), digest, committed);
  }

  /** Called by the check in flight when it passed: what it covers may be opened. */
  void checkPassed() {
    checkInFlight = false;
    passed = covered;
  }

  /** Gives the pooled columns of {@code batches}, read for the last time, back to the pool. */
  void release(List<OpenedValues.Batch> batches) {
    for (OpenedValues.Batch b : batches) {
      if (b.pooled()) {
        pool.giveBack(b.values());
        pool.giveBack(b.macs());
      }
    }
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

  /** A fresh nonce for a commitment. */
  long[] nonce() {
    long[] nonce = new long[4];
    prg.fill(nonce, 0, nonce.length);
    return nonce;
  }

  // ---- the seed of the next check ----

  /** The set-up (one round, once per engine): commits to the first check's seed. */
  RoundProtocol setup() {
    return new RoundProtocol() {
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
  }

  /** Draws this party's seed for the next check and sends everyone a commitment to it. */
  void sendSeedCommitment(Outbox out) {
    seed = new long[] {prg.nextLong(), prg.nextLong()};
    seedNonce = nonce();
    long[] commitment = Hashing.commit("seed", self, checks, seed, seedNonce);
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        out.write(k, commitment, 0, commitment.length);
      }
    }
  }

  /** Reads every other party's commitment to its seed for the next check. */
  void receiveSeedCommitments(Inbox in) {
    long[][] commitments = new long[parties][];
    for (int k = 0; k < parties; k++) {
      if (k != self) {
        commitments[k] = new long[Hashing.DIGEST_WORDS];
        in.read(k, commitments[k], 0, Hashing.DIGEST_WORDS);
      }
    }
    seedCommitments = commitments;
  }

  private long[] broadcastDigest() {
    try {
      return Hashing.words(((MessageDigest) broadcasts.clone()).digest());
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("SHA-256 digest cannot be cloned", e);
    }
  }
}
