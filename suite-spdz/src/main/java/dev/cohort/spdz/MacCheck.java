package dev.cohort.spdz;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.field.Mersenne127;
import dev.cohort.field.Mersenne61;
import dev.cohort.parallel.Workers;
import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.util.Arrays;
import java.util.List;

/**
 * The SPDZ MAC check of a batch of opened values v_1..v_k [DPSZ12, DKL+13], with the comparison of
 * the broadcast digests, in three rounds whatever k is:
 *
 * <pre>
 *  round 0   open the seed s_i committed to earlier; send the broadcast digest
 *            s = XOR s_i;  r_j = PRG(s, j);  v = Σ r_j v_j;  σ_i = Σ r_j m_ij − α_i·v
 *  round 1   send a commitment to σ_i
 *  round 2   open σ_i; send a commitment to the seed of the next check
 *            abort unless every digest equals ours and Σ σ_i = 0
 * </pre>
 *
 * <p>The seed of a check is committed to in the last round of the check before (or in the suite's
 * set-up, for the first one), which saves the commitment round: the seed is still fixed before, and
 * revealed after, every value the check covers was opened. Commitments are SHA-256 of the party,
 * the check number, the value and a 32-byte nonce.
 *
 * <p>When it runs ({@link CheckLedger#start}): before the results leave the engine, once {@link
 * SpdzConfig#checkEvery()} values are unchecked, and before every opening but Beaver's d and e
 * (outputs, openings to one party, statistically masked values) that follows unchecked opened
 * values. Such an opening sends its shares only in the round after this check passed, three rounds
 * after it started, so nothing computed from a tampered opening is revealed: the check fails first,
 * at every honest party. All openings that start in one round wait for one check. When only input
 * broadcasts are unchecked, their digests are compared alone in one round ({@link BroadcastCheck}).
 *
 * <p>Soundness: the coefficients r_j are uniform field elements on fields of 64 bits or fewer, and
 * uniform in [0, 2^64) on wider fields, where a product by a 64-bit r_j costs half of a full one. A
 * forged value (an error e_j ≠ 0 in some m_j − α·v_j) passes when Σ r_j e_j = 0, which for any
 * fixed errors holds for at most one value of one r_j: probability 2^−64 on wider fields, 1/p
 * otherwise, plus about 1/p for guessing α. Over 2^127 − 1 a forged value thus passes one check
 * with probability about 2^−64 (2^−60 over 2^61 − 1), far below the 2^−40 of the library's
 * statistical masking.
 */
final class MacCheck implements RoundProtocol {

  private static final int SEED_WORDS = 2;
  private static final int NONCE_WORDS = 4;
  private static final int CHUNK = 1 << 14; // coefficients drawn at a time

  private final ShareExchange exchange;
  private final CheckLedger ledger;
  private final SpdzPreprocessing preprocessing; // told before σ_i is revealed and when passed
  private final long[] alpha; // this party's MAC key share α_i
  private final Field field;
  private final int words;
  private final int self;
  private final int parties;
  private final long index;
  private final List<OpenedValues.Batch> batches;
  private final long count;
  private final long[] digest;
  private final CheckLedger.Seed seed;
  private final long[][] digests;
  private final long[][] sigmaCommitments;
  private long[] sigma;
  private long[] sigmaNonce;

  /**
   * The check {@code check} that {@link CheckLedger#start} started, of this party's opened values
   * against its MAC key share {@code alpha}; {@code preprocessing} is told before σ_i is revealed
   * and when the check passed.
   */
  MacCheck(
      ShareExchange exchange,
      CheckLedger ledger,
      SpdzPreprocessing preprocessing,
      long[] alpha,
      CheckLedger.Check check) {
    this.exchange = exchange;
    this.ledger = ledger;
    this.preprocessing = preprocessing;
    this.alpha = alpha;
    this.field = exchange.field();
    this.words = field.words();
    this.self = exchange.self();
    this.parties = exchange.parties();
    this.index = check.index();
    this.batches = check.batches();
    this.count = check.count();
    this.digest = check.digest();
    this.seed = check.seed();
    this.digests = new long[parties][];
    this.sigmaCommitments = new long[parties][];
  }

  @Override
  public void send(int round, Outbox out) {
    if (round == 2) {
      preprocessing.beforeMacReveal(); // a failed check reveals α: burn the key until passed
    }
    for (int k = 0; k < parties; k++) {
      if (k == self) {
        continue;
      }
      switch (round) {
        case 0 -> {
          out.write(k, seed.value(), 0, SEED_WORDS);
          out.write(k, seed.nonce(), 0, NONCE_WORDS);
          out.write(k, digest, 0, Hashing.DIGEST_WORDS);
        }
        case 1 -> out.write(k, sigmaCommitments[self], 0, Hashing.DIGEST_WORDS);
        default -> {
          out.write(k, sigma, 0, sigma.length);
          out.write(k, sigmaNonce, 0, NONCE_WORDS);
        }
      }
    }
    if (round == 2) {
      ledger.sendSeedCommitment(out);
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    switch (round) {
      case 0 -> {
        long[] s = openSeeds(in);
        sigma = sigma(s);
        ledger.release(batches); // read for the last time
        sigmaNonce = ledger.nonce();
        sigmaCommitments[self] = Hashing.commit("sigma", self, index, sigma, sigmaNonce);
        return false;
      }
      case 1 -> {
        for (int k = 0; k < parties; k++) {
          if (k != self) {
            sigmaCommitments[k] = new long[Hashing.DIGEST_WORDS];
            in.read(k, sigmaCommitments[k], 0, Hashing.DIGEST_WORDS);
          }
        }
        return false;
      }
      default -> {
        try {
          long[] total = openSigmas(in);
          ledger.receiveSeedCommitments(in);
          compareDigests(digests, digest, index, self);
          if (!field.equal(total, 0, field.alloc(1), 0)) {
            throw failure(
                "the opened values do not match their MACs; a party sent inconsistent shares or"
                    + " the preprocessing is corrupt");
          }
        } catch (RuntimeException e) {
          preprocessing.macCheckFailed(); // σ_i is out and the check failed: the key is burned
          throw e;
        }
        preprocessing.macCheckPassed();
        ledger.checkPassed();
        return true;
      }
    }
  }

  /** Reads and verifies every party's seed (and digest); returns the joint seed. */
  private long[] openSeeds(Inbox in) {
    long[] joint = seed.value().clone();
    long[] s = new long[SEED_WORDS];
    long[] nonce = new long[NONCE_WORDS];
    digests[self] = digest;
    for (int k = 0; k < parties; k++) {
      if (k == self) {
        continue;
      }
      in.read(k, s, 0, SEED_WORDS);
      in.read(k, nonce, 0, NONCE_WORDS);
      digests[k] = new long[Hashing.DIGEST_WORDS];
      in.read(k, digests[k], 0, Hashing.DIGEST_WORDS);
      if (!Arrays.equals(Hashing.commit("seed", k, index, s, nonce), seed.commitments()[k])) {
        throw failure(
            PartyId.of(k)
                + " opened a seed that does not match its commitment; "
                + PartyId.of(k)
                + " is cheating or its messages were altered");
      }
      for (int w = 0; w < SEED_WORDS; w++) {
        joint[w] ^= s[w];
      }
    }
    return joint;
  }

  /** σ_i = Σ r_j m_ij − α_i · Σ r_j v_j with r_j drawn from the joint seed. */
  private long[] sigma(long[] jointSeed) {
    byte[] key = new byte[16];
    for (int b = 0; b < 8; b++) {
      key[b] = (byte) (jointSeed[0] >>> (8 * b));
      key[8 + b] = (byte) (jointSeed[1] >>> (8 * b));
    }
    Prg coefficients = ledger.coefficients(key, index);
    long[] v = field.alloc(1);
    long[] mu = field.alloc(1);
    if (field instanceof Mersenne61 || field instanceof Mersenne127) {
      fusedSums(coefficients, v, mu);
    } else {
      long[] r = field.alloc(CHUNK);
      long[] t = field.alloc(1);
      long[] words64 = new long[CHUNK];
      for (OpenedValues.Batch b : batches) {
        for (int from = 0; from < b.count(); from += CHUNK) {
          int n = Math.min(CHUNK, b.count() - from);
          if (field.bitLength() > 64) {
            coefficients.fill(words64, 0, n); // r_j < 2^64 < p: word 0 of the element
            java.util.Arrays.fill(r, 0L);
            for (int j = 0; j < n; j++) {
              r[j * words] = words64[j];
            }
          } else {
            field.random(coefficients, r, 0, n);
          }
          field.innerProduct(r, 0, b.values(), from, n, t, 0);
          field.add(v, 0, t, 0, v, 0, 1);
          field.innerProduct(r, 0, b.macs(), from, n, t, 0);
          field.add(mu, 0, t, 0, mu, 0, 1);
        }
      }
    }
    long[] t = field.alloc(1);
    long[] out = field.alloc(1);
    field.mul(alpha, 0, v, 0, t, 0, 1);
    field.sub(mu, 0, t, 0, out, 0, 1);
    return out;
  }

  /**
   * v = Σ r_j v_j and μ = Σ r_j m_ij for the Mersenne fields: both sums in one pass of {@link
   * SpdzKernels}, the same coefficients in the same order as the generic path. Large checks are
   * split over threads ({@link #splitSums}).
   */
  private void fusedSums(Prg coefficients, long[] v, long[] mu) {
    int chunk = 1; // no larger than the largest batch: a small check allocates little
    long total = 0;
    for (OpenedValues.Batch b : batches) {
      chunk = Math.max(chunk, Math.min(CHUNK, b.count()));
      total += b.count();
    }
    if (total <= Integer.MAX_VALUE
        && coefficients instanceof AesCtrPrg generator
        && splitSums(generator, (int) total, v, mu)) {
      return;
    }
    long[] acc = new long[2 * words]; // v, then μ; canonical between chunks over 2^127 − 1
    sums(coefficients, 0, total, new long[chunk * words], acc);
    System.arraycopy(acc, 0, v, 0, words);
    System.arraycopy(acc, words, mu, 0, words);
  }

  /**
   * Adds to {@code acc} the sums over the opened values [from, to) of all batches (in the order
   * they were opened), drawing their coefficients from {@code coefficients} in pieces of at most
   * {@code r}'s size, each piece within one batch: from 0 the pieces of the one-thread path.
   */
  private void sums(Prg coefficients, long from, long to, long[] r, long[] acc) {
    int piece = r.length / words;
    long start = 0; // of the batch, among all opened values
    for (OpenedValues.Batch b : batches) {
      long end = start + b.count();
      for (long j = Math.max(from, start); j < Math.min(to, end); j += piece) {
        int at = (int) (j - start);
        int n = (int) Math.min(piece, Math.min(to, end) - j);
        if (words == 1) {
          field.random(coefficients, r, 0, n);
          SpdzKernels.macSums61(r, b.values(), b.macs(), at, n, acc);
        } else {
          coefficients.fill(r, 0, n); // 64-bit coefficients, as the generic path draws them
          SpdzKernels.macSumsShort127(r, b.values(), b.macs(), at, n, acc);
        }
      }
      start = end;
    }
  }

  /**
   * The sums split over threads when the check is large: chunk c draws its coefficients from a copy
   * of the generator at its first value (one word per coefficient on both fields) and sums its
   * range; the partial sums are added mod p, so the result is the one-thread result. False, and
   * nothing done, when the check does not split, or when a copy met a value drawn again by
   * rejection sampling (odds 2^−61 per coefficient over 2^61 − 1), whose later coefficients only
   * one generator places right.
   */
  private boolean splitSums(AesCtrPrg coefficients, int total, long[] v, long[] mu) {
    Workers workers = exchange.workers();
    int chunks = workers.chunks(total, ShareExchange.MIN_CHUNK);
    if (chunks < 2) {
      return false;
    }
    long[][] partial = new long[chunks][];
    boolean[] rejected = new boolean[chunks];
    long start = coefficients.position();
    workers.run(
        total,
        ShareExchange.MIN_CHUNK,
        (c, from, to) -> {
          AesCtrPrg copy = coefficients.copyAt(start + from);
          long[] acc = new long[2 * words];
          sums(copy, from, to, new long[Math.min(CHUNK, to - from) * words], acc);
          rejected[c] = copy.position() != start + to;
          partial[c] = acc;
        });
    for (boolean r : rejected) {
      if (r) {
        return false;
      }
    }
    Arrays.fill(v, 0L);
    Arrays.fill(mu, 0L);
    for (long[] acc : partial) {
      field.add(v, 0, acc, 0, v, 0, 1);
      field.add(mu, 0, acc, 1, mu, 0, 1);
    }
    return true;
  }

  /** Reads and verifies every party's σ; returns Σ σ_i. */
  private long[] openSigmas(Inbox in) {
    long[] total = sigma.clone();
    long[] s = field.alloc(1);
    long[] nonce = new long[NONCE_WORDS];
    for (int k = 0; k < parties; k++) {
      if (k == self) {
        continue;
      }
      exchange.read(in, k, s, 1);
      in.read(k, nonce, 0, NONCE_WORDS);
      if (!Arrays.equals(Hashing.commit("sigma", k, index, s, nonce), sigmaCommitments[k])) {
        throw failure(
            PartyId.of(k)
                + " opened a MAC check value that does not match its commitment; "
                + PartyId.of(k)
                + " is cheating or its messages were altered");
      }
      field.add(total, 0, s, 0, total, 0, 1);
    }
    return total;
  }

  /**
   * Aborts unless every party's broadcast digest ({@code digests[k]}) equals {@code digest}, this
   * party's: shared with {@link BroadcastCheck}.
   */
  static void compareDigests(long[][] digests, long[] digest, long index, int self) {
    for (int k = 0; k < digests.length; k++) {
      if (!Arrays.equals(digests[k], digest)) {
        throw new AbortException(
            "input broadcast check failed (check "
                + index
                + "): "
                + PartyId.of(k)
                + " received other input broadcasts than "
                + PartyId.of(self)
                + "; an input owner sent different values to different parties");
      }
    }
  }

  private AbortException failure(String why) {
    return new AbortException(
        "MAC check failed (check " + index + ", " + count + " opened values): " + why);
  }
}
