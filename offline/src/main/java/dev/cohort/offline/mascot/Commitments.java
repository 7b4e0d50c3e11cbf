package dev.cohort.offline.mascot;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 commitments over words: a commitment to {@code value} by {@code party} in run {@code run}
 * is SHA-256 of a tag, the party, the run, the value and a 32-byte random nonce, as four
 * little-endian words. Binding the party stops a party from copying another's commitment and
 * opening it to the same value; binding the run stops a replay from an earlier batch.
 */
final class Commitments {

  static final int DIGEST_WORDS = 4;
  static final int NONCE_WORDS = 4;

  private Commitments() {}

  static long[] commit(String tag, int party, long run, long[] value, long[] nonce) {
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    digest.update(tag.getBytes(StandardCharsets.US_ASCII));
    update(digest, party);
    update(digest, run);
    update(digest, value.length);
    for (long w : value) {
      update(digest, w);
    }
    for (long w : nonce) {
      update(digest, w);
    }
    byte[] d = digest.digest();
    long[] out = new long[DIGEST_WORDS];
    for (int i = 0; i < 8 * DIGEST_WORDS; i++) {
      out[i / 8] |= (d[i] & 0xffL) << (8 * (i % 8));
    }
    return out;
  }

  private static void update(MessageDigest digest, long word) {
    for (int b = 0; b < 8; b++) {
      digest.update((byte) (word >>> (8 * b)));
    }
  }
}
