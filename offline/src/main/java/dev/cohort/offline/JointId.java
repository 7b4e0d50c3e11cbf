package dev.cohort.offline;

import dev.cohort.api.AbortException;
import dev.cohort.net.Channel;
import dev.cohort.random.Prg;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * 128 bits the same at every party, that no party chose: the id that binds the files the parties
 * write in one run of the offline phase to each other and to their use records. One round: every
 * party sends 128 fresh random bits to every peer, and the id is the first 128 bits of SHA-256 over
 * all contributions in party order. A party that sends last still cannot steer the id to a value of
 * its choice (that would take a preimage of SHA-256); a party that sends different contributions to
 * different peers makes their ids differ, and the parties' files then refuse to be used together
 * (the online phase's position agreement compares them).
 */
public final class JointId {

  private static final int WORDS = 2;

  private JointId() {}

  /** Runs the round over {@code channel} and returns the id (2 words). */
  public static long[] agree(Channel channel) {
    int n = channel.parties();
    int me = channel.myId();
    long[] mine = new long[WORDS];
    Prg.secure().fill(mine, 0, WORDS);
    long[][] out = new long[n][];
    int[] lengths = new int[n];
    for (int p = 0; p < n; p++) {
      if (p != me) {
        out[p] = mine;
        lengths[p] = WORDS;
      }
    }
    long[][] in = channel.exchange(out, lengths);
    MessageDigest sha = sha256();
    ByteBuffer word = ByteBuffer.allocate(8 * WORDS);
    for (int p = 0; p < n; p++) {
      long[] c = p == me ? mine : in[p];
      if (c == null || c.length < WORDS) {
        throw new AbortException(
            "P" + p + " sent a malformed contribution to the joint id of the offline phase");
      }
      word.clear();
      word.putLong(c[0]).putLong(c[1]);
      sha.update(word.array());
    }
    ByteBuffer digest = ByteBuffer.wrap(sha.digest());
    return new long[] {digest.getLong(), digest.getLong()};
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }
}
