package dev.cohort.spdz;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 over words: the running digest of broadcast values, and commitments. A digest of 32 bytes
 * travels as four little-endian words.
 */
final class Hashing {

  static final int DIGEST_WORDS = 4;

  private Hashing() {}

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }

  static void update(MessageDigest digest, long word) {
    for (int b = 0; b < 8; b++) {
      digest.update((byte) (word >>> (8 * b)));
    }
  }

  static void update(MessageDigest digest, long[] words, int off, int n) {
    byte[] bytes = new byte[8 * n];
    for (int i = 0; i < n; i++) {
      long w = words[off + i];
      for (int b = 0; b < 8; b++) {
        bytes[8 * i + b] = (byte) (w >>> (8 * b));
      }
    }
    digest.update(bytes);
  }

  /** The digest as {@link #DIGEST_WORDS} words. */
  static long[] words(byte[] digest) {
    long[] out = new long[DIGEST_WORDS];
    for (int i = 0; i < 8 * DIGEST_WORDS; i++) {
      out[i / 8] |= (digest[i] & 0xffL) << (8 * (i % 8));
    }
    return out;
  }

  /**
   * A commitment to {@code value} by {@code party} for check number {@code check}: SHA-256 of a
   * tag, the party, the check, the value and a 32-byte random nonce. Binding it to the party stops
   * a party from copying another's commitment and opening to the same value.
   */
  static long[] commit(String tag, int party, long check, long[] value, long[] nonce) {
    MessageDigest digest = sha256();
    digest.update(tag.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    update(digest, party);
    update(digest, check);
    update(digest, value.length);
    update(digest, value, 0, value.length);
    update(digest, nonce, 0, nonce.length);
    return words(digest.digest());
  }
}
