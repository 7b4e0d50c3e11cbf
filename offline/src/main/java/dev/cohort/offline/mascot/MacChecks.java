package dev.cohort.offline.mascot;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The MAC check of everything one run opened [DPSZ12, DKL+13], as named groups checked in the same
 * four rounds: for each group g of opened values v_j (public) with this party's MAC shares m_j, σ_g
 * = Σ r_j m_j − α_i·Σ r_j v_j with coefficients r_j from a seed opened only after every value was
 * opened; the σ_g are committed to, then opened, and each group must sum to zero. A group whose
 * values are claimed to be zero without being opened (the sacrifice) has v_j = 0.
 *
 * <pre>
 *  round 0   open the check's seed (committed in an earlier round of the run)
 *  round 1   send a commitment to (σ_g)_g
 *  round 2   open (σ_g)_g;  abort unless every group sums to 0, naming the first that does not
 *  round 3   confirm: every party that passed says so; one that did not has aborted instead
 * </pre>
 *
 * <p>The confirmation round makes the check unanimous among honest parties: a cheat that only one
 * honest party sees (a σ altered on its way to that party alone) aborts that party, and every other
 * honest party then fails in round 3 on its abort (a {@link dev.cohort.api.PeerAbortedException}
 * carrying the check's name) instead of returning the batch. A corrupt party can still withhold its
 * own confirmation from some parties after every check passed (selective abort): the material the
 * others return is then valid.
 *
 * <p>Values opened inconsistently (different values to different parties) are caught too: each
 * honest party's σ uses its own view v', and Σ σ = Σ_honest α_i·(v − v'_i) ≠ 0 for errors fixed
 * before the coefficients and without knowledge of the honest key shares. Soundness per group about
 * 2/p with full-field coefficients.
 */
final class MacChecks {

  private static final long[] CONFIRMED = {0x4d41434f4b4cL}; // "MACOKL": the checks passed

  private final Field field;
  private final long[] alpha;
  private final Prg prg; // this party's: the nonce of its commitment
  private final List<String> names = new ArrayList<>();
  private final List<List<long[][]>> parts = new ArrayList<>(); // {values or null, macs, {count}}

  MacChecks(Field field, long[] alpha, Prg prg) {
    this.field = field;
    this.alpha = alpha;
    this.prg = prg;
  }

  /**
   * Adds {@code count} opened values (null: claimed zero, not opened) and this party's MAC shares
   * of them to the group {@code name} (the check named in an abort).
   */
  void add(String name, long[] values, long[] macs, int count) {
    int g = names.indexOf(name);
    if (g < 0) {
      names.add(name);
      parts.add(new ArrayList<>());
      g = names.size() - 1;
    }
    parts.get(g).add(new long[][] {values, macs, {count}});
  }

  /** Runs the four rounds; {@code coins}' seed {@code seed} gives the coefficients. */
  void run(Lockstep lockstep, JointCoins coins, int seed, long run) {
    coins.writeOpening(seed);
    Prg coefficients = coins.readOpening(seed, lockstep.exchange());
    long[] sigma = sigmas(coefficients);
    long[] nonce = new long[Commitments.NONCE_WORDS];
    long[] ownNonce = new long[Commitments.NONCE_WORDS];
    prg.fill(ownNonce, 0, ownNonce.length);
    int self = lockstep.self();
    long[] commitment = Commitments.commit("mascot-sigma", self, run, sigma, ownNonce);
    lockstep.broadcast(commitment, 0, commitment.length);
    Inbox in = lockstep.exchange();
    long[][] commitments = new long[lockstep.parties()][Commitments.DIGEST_WORDS];
    for (int p = 0; p < lockstep.parties(); p++) {
      if (p != self) {
        in.read(p, commitments[p], 0, Commitments.DIGEST_WORDS);
      }
    }
    lockstep.broadcast(sigma, 0, sigma.length);
    lockstep.broadcast(ownNonce, 0, ownNonce.length);
    in = lockstep.exchange();
    long[] total = sigma.clone();
    long[] s = new long[sigma.length];
    for (int p = 0; p < lockstep.parties(); p++) {
      if (p == self) {
        continue;
      }
      in.read(p, s, 0, s.length);
      in.read(p, nonce, 0, nonce.length);
      if (!Arrays.equals(Commitments.commit("mascot-sigma", p, run, s, nonce), commitments[p])) {
        throw new AbortException(
            "MASCOT MAC check failed (run "
                + run
                + "): "
                + PartyId.of(p)
                + " opened a check value that does not match its commitment; "
                + PartyId.of(p)
                + " is cheating or its messages were altered");
      }
      field.add(total, 0, s, 0, total, 0, names.size());
    }
    verify(total, run);
    lockstep.broadcast(CONFIRMED, 0, 1);
    in = lockstep.exchange();
    long[] word = new long[1];
    for (int p = 0; p < lockstep.parties(); p++) {
      if (p != self) {
        in.read(p, word, 0, 1);
        if (word[0] != CONFIRMED[0]) {
          throw new AbortException(
              "MASCOT MAC check failed (run "
                  + run
                  + "): "
                  + PartyId.of(p)
                  + " did not confirm that its checks passed");
        }
      }
    }
    lockstep.finish();
  }

  /** σ_g for every group, packed. */
  long[] sigmas(Prg coefficients) {
    long[] out = field.alloc(names.size());
    long[] v = field.alloc(1);
    long[] mu = field.alloc(1);
    long[] t = field.alloc(1);
    for (int g = 0; g < names.size(); g++) {
      java.util.Arrays.fill(v, 0L);
      java.util.Arrays.fill(mu, 0L);
      for (long[][] part : parts.get(g)) {
        int count = (int) part[2][0];
        long[] r = field.alloc(count);
        field.random(coefficients, r, 0, count);
        if (part[0] != null) {
          field.innerProduct(r, 0, part[0], 0, count, t, 0);
          field.add(v, 0, t, 0, v, 0, 1);
        }
        field.innerProduct(r, 0, part[1], 0, count, t, 0);
        field.add(mu, 0, t, 0, mu, 0, 1);
      }
      field.mul(alpha, 0, v, 0, t, 0, 1);
      field.sub(mu, 0, t, 0, out, g, 1);
    }
    return out;
  }

  private void verify(long[] total, long run) {
    long[] zero = field.alloc(1);
    for (int g = 0; g < names.size(); g++) {
      if (!field.equal(total, g, zero, 0)) {
        throw new AbortException("MASCOT " + names.get(g) + " (run " + run + ")");
      }
    }
  }
}
