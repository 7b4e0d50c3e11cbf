package dev.cohort.clients;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 over words, for what the servers compare (a client's submission, the grants and
 * candidates of a session) and for commitments. A digest travels as {@link #WORDS} words.
 */
final class Digests {

  static final int WORDS = 4;

  private static final VarHandle LITTLE_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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

  /**
   * The digest of {@code words}, as {@link #WORDS} words into {@code out} from {@code at}, with
   * {@code digest} (reset afterwards) and {@code scratch} (at least 8 bytes per word) reused across
   * calls: a digest per client is on the path of every session's close.
   */
  static void of(MessageDigest digest, byte[] scratch, long[] words, long[] out, int at) {
    for (int i = 0; i < words.length; i++) {
      LITTLE_ENDIAN_LONGS.set(scratch, 8 * i, words[i]);
    }
    digest.update(scratch, 0, 8 * words.length);
    toWords(digest.digest(), out, at);
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
