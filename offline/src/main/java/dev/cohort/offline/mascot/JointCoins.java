package dev.cohort.offline.mascot;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import java.util.Arrays;

/**
 * Jointly random seeds by commit-then-open: every party commits to a random 128-bit value for each
 * seed, all commitments in one round; seed s is later opened (each party its value and nonce) and
 * is the XOR of all values, uniform if one party is honest. A seed opened in round r is unknown to
 * every party before r, so values fixed before r cannot depend on it; the commitments travel in an
 * earlier round of the same run.
 */
final class JointCoins {

  private static final int SEED_WORDS = 2;

  private final Lockstep lockstep;
  private final long run;
  private final long[][] values; // this party's value of each seed
  private final long[][] nonces;
  private final long[][][] commitments; // [seed][party]

  JointCoins(Lockstep lockstep, Prg prg, long run, int seeds) {
    this.lockstep = lockstep;
    this.run = run;
    this.values = new long[seeds][SEED_WORDS];
    this.nonces = new long[seeds][Commitments.NONCE_WORDS];
    this.commitments = new long[seeds][lockstep.parties()][];
    for (int s = 0; s < seeds; s++) {
      prg.fill(values[s], 0, SEED_WORDS);
      prg.fill(nonces[s], 0, Commitments.NONCE_WORDS);
    }
  }

  /** Writes the commitments to every seed to every peer (in the current round). */
  void writeCommitments() {
    for (int s = 0; s < values.length; s++) {
      long[] c = Commitments.commit(tag(s), lockstep.self(), run, values[s], nonces[s]);
      lockstep.broadcast(c, 0, c.length);
    }
  }

  /** Reads the peers' commitments written by {@link #writeCommitments()}. */
  void readCommitments(Inbox in) {
    for (int s = 0; s < values.length; s++) {
      for (int p = 0; p < lockstep.parties(); p++) {
        if (p != lockstep.self()) {
          commitments[s][p] = new long[Commitments.DIGEST_WORDS];
          in.read(p, commitments[s][p], 0, Commitments.DIGEST_WORDS);
        }
      }
    }
  }

  /** Writes this party's value and nonce of seed {@code s} to every peer. */
  void writeOpening(int s) {
    lockstep.broadcast(values[s], 0, SEED_WORDS);
    lockstep.broadcast(nonces[s], 0, Commitments.NONCE_WORDS);
  }

  /** Reads and verifies the openings of seed {@code s}; returns a PRG keyed by the joint seed. */
  Prg readOpening(int s, Inbox in) {
    long[] joint = values[s].clone();
    long[] v = new long[SEED_WORDS];
    long[] nonce = new long[Commitments.NONCE_WORDS];
    for (int p = 0; p < lockstep.parties(); p++) {
      if (p == lockstep.self()) {
        continue;
      }
      in.read(p, v, 0, SEED_WORDS);
      in.read(p, nonce, 0, Commitments.NONCE_WORDS);
      if (!Arrays.equals(Commitments.commit(tag(s), p, run, v, nonce), commitments[s][p])) {
        throw new AbortException(
            "MASCOT coin toss failed (run "
                + run
                + "): "
                + PartyId.of(p)
                + " opened a seed that does not match its commitment; "
                + PartyId.of(p)
                + " is cheating or its messages were altered");
      }
      joint[0] ^= v[0];
      joint[1] ^= v[1];
    }
    byte[] key = new byte[16];
    for (int b = 0; b < 8; b++) {
      key[b] = (byte) (joint[0] >>> (8 * b));
      key[8 + b] = (byte) (joint[1] >>> (8 * b));
    }
    return Prg.fromKey(key, run);
  }

  private static String tag(int s) {
    return "mascot-coin-" + s;
  }
}
