package dev.cohort.spdz;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 over words: the running digest of broadcast values, and commitments. A digest of 32 bytes
 * travels as four little-endian words.
 */
final class Hashing {

  static final int DIGEST_WORDS = 4;

  private static final int BUFFER_WORDS = 1 << 11; // 16 KiB of bytes at a time
  private static final VarHandle LITTLE_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
    // Little-endian bytes through a bounded buffer, eight at a time: the byte-at-a-time loop over
    // a buffer of the whole batch cost about as much as SHA-256 itself.
    byte[] bytes = new byte[8 * Math.min(n, BUFFER_WORDS)];
    for (int from = 0; from < n; from += BUFFER_WORDS) {
      int k = Math.min(BUFFER_WORDS, n - from);
      for (int i = 0; i < k; i++) {
        LITTLE_ENDIAN_LONGS.set(bytes, 8 * i, words[off + from + i]);
      }
      digest.update(bytes, 0, 8 * k);
    }
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
