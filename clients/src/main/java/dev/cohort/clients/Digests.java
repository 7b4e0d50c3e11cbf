package dev.cohort.clients;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 over words, for what the servers compare (a client's submission, the grants and
 * candidates of a session) and for commitments. A digest travels as {@link #WORDS} words.
 */
final class Digests {

  static final int WORDS = 4;

  private Digests() {}

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

  /** The digest of {@code words}, as {@link #WORDS} words into {@code out} from {@code at}. */
  static void of(long[] words, long[] out, int at) {
    MessageDigest digest = sha256();
    byte[] bytes = new byte[8 * words.length];
    for (int i = 0; i < words.length; i++) {
      long v = words[i];
      for (int b = 0; b < 8; b++) {
        bytes[8 * i + b] = (byte) (v >>> (8 * b));
      }
    }
    toWords(digest.digest(bytes), out, at);
  }

  static void toWords(byte[] digest, long[] out, int at) {
    for (int w = 0; w < WORDS; w++) {
      long v = 0;
      for (int b = 0; b < 8; b++) {
        v |= (digest[8 * w + b] & 0xffL) << (8 * b);
      }
      out[at + w] = v;
    }
  }

  /**
   * A commitment of {@code server} to {@code value} in {@code session}: SHA-256 of a tag, the
   * server, the session, the value and a random {@code nonce}. Binding it to the server stops a
   * server from copying another's commitment and opening to the same value, which would cancel that
   * value out of an XOR.
   */
  static long[] commit(int server, long session, long[] value, long[] nonce) {
    MessageDigest digest = sha256();
    digest.update("cohort input-server seed".getBytes(StandardCharsets.US_ASCII));
    update(digest, server);
    update(digest, session);
    for (long v : value) {
      update(digest, v);
    }
    for (long v : nonce) {
      update(digest, v);
    }
    long[] out = new long[WORDS];
    toWords(digest.digest(), out, 0);
    return out;
  }
}
