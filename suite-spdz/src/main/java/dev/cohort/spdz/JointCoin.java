package dev.cohort.spdz;

import dev.cohort.api.AbortException;
import dev.cohort.api.PartyId;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import java.util.Arrays;

/**
 * A public random 128-bit key that no party can bias or predict before the messages of the round in
 * which it commits are fixed, in two rounds (commit-then-open, as the MAC check's seed):
 *
 * <pre>
 *  round 0   send a commitment to a random seed s_i (SHA-256 of the tag, party, coin number, s_i
 *            and a 32-byte nonce)
 *  round 1   open s_i and the nonce; abort naming any party whose opening does not match
 *            key = XOR of every s_i
 * </pre>
 *
 * <p>Whatever a corrupt party sends in round 0 or earlier is fixed before any honest seed is
 * revealed, so the key is uniform and independent of it as long as one party is honest. Run it side
 * by side with the protocol whose values must be fixed first (its round 0 in their first round).
 */
final class JointCoin implements RoundProtocol {

  private static final String TAG = "coin";
  private static final int SEED_WORDS = 2;

  private final SpdzSuite suite;
  private final long index;
  private final long[] seed;
  private final long[] nonce;
  private final long[][] commitments;
  private byte[] key;

  JointCoin(SpdzSuite suite) {
    this.suite = suite;
    this.index = suite.nextCoin();
    this.seed = Arrays.copyOf(suite.nonce(), SEED_WORDS); // fresh words from the suite's PRG
    this.nonce = suite.nonce();
    this.commitments = new long[suite.parties()][];
  }

  @Override
  public void send(int round, Outbox out) {
    long[] commitment = round == 0 ? Hashing.commit(TAG, suite.party(), index, seed, nonce) : null;
    for (int k = 0; k < suite.parties(); k++) {
      if (k == suite.party()) {
        continue;
      }
      if (round == 0) {
        out.write(k, commitment, 0, commitment.length);
      } else {
        out.write(k, seed, 0, SEED_WORDS);
        out.write(k, nonce, 0, nonce.length);
      }
    }
  }

  @Override
  public boolean receive(int round, Inbox in) {
    if (round == 0) {
      for (int k = 0; k < suite.parties(); k++) {
        if (k != suite.party()) {
          commitments[k] = new long[Hashing.DIGEST_WORDS];
          in.read(k, commitments[k], 0, Hashing.DIGEST_WORDS);
        }
      }
      return false;
    }
    long[] joint = seed.clone();
    long[] s = new long[SEED_WORDS];
    long[] n = new long[nonce.length];
    for (int k = 0; k < suite.parties(); k++) {
      if (k == suite.party()) {
        continue;
      }
      in.read(k, s, 0, SEED_WORDS);
      in.read(k, n, 0, n.length);
      if (!Arrays.equals(Hashing.commit(TAG, k, index, s, n), commitments[k])) {
        throw new AbortException(
            "joint coin "
                + index
                + ": "
                + PartyId.of(k)
                + " opened a seed that does not match its commitment; "
                + PartyId.of(k)
                + " is cheating or its messages were altered");
      }
      for (int w = 0; w < SEED_WORDS; w++) {
        joint[w] ^= s[w];
      }
    }
    key = new byte[8 * SEED_WORDS];
    for (int b = 0; b < 8; b++) {
      key[b] = (byte) (joint[0] >>> (8 * b));
      key[8 + b] = (byte) (joint[1] >>> (8 * b));
    }
    return true;
  }

  /** The joint key, once round 1 has been received. */
  byte[] key() {
    return key;
  }
}
