package dev.cohort.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Frames of the wire format built byte by byte from its description, independently of both
 * transports' encoders and of {@link WireFormat}'s copies: header fields big-endian, a hello's
 * magic as its ASCII letters, a data frame's words little-endian one {@code putLong} at a time.
 * Tests pin the encoders to it and feed its bytes to the decoders.
 */
public final class WireReference {

  /**
   * The magic of this version, of the one before (a frame on every link in every round) and of the
   * first (big-endian words).
   */
  public static final String VERSION = "COHORT03";

  public static final String VERSION_02 = "COHORT02";

  public static final String VERSION_01 = "COHORT01";

  private WireReference() {}

  /**
   * Words whose bytes all differ or whose high bits are set: a swapped, shifted or sign-extended
   * byte shows in each of them.
   */
  public static long[] edgeWords() {
    return new long[] {
      0x0102030405060708L,
      0x8000000000000001L,
      -1L,
      -2L,
      Long.MIN_VALUE,
      Long.MAX_VALUE,
      (1L << 61) - 2,
      (1L << 61) - 1,
      (1L << 63) | ((1L << 61) - 1),
      0xFEDCBA9876543210L,
      0,
      1,
      0xFF,
      0xFF00000000000000L
    };
  }

  /**
   * {@code length} words: the edge words at the start, around every multiple of {@code boundary}
   * (where a frame's parts or a decoder's reads may split it) and at the end, random ones between.
   */
  public static long[] words(int length, int boundary, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    long[] words = random.longs(length).toArray();
    long[] edges = edgeWords();
    for (int at = 0; at < length; at += boundary) {
      for (int i = 0; i < edges.length; i++) {
        int before = at - 1 - i;
        int after = at + i;
        if (before >= 0) {
          words[before] = edges[i];
        }
        if (after < length) {
          words[after] = edges[edges.length - 1 - i];
        }
      }
    }
    for (int i = 0; i < edges.length && i < length; i++) {
      words[length - 1 - i] = edges[i];
    }
    return words;
  }

  /** A data frame for {@code round} carrying {@code words[0..length)}. */
  public static byte[] data(int round, long[] words, int length) {
    ByteBuffer frame = ByteBuffer.allocate(12 + 8 * length); // big-endian until told otherwise
    frame.putInt(8 + 8 * length).putInt(0).putInt(round);
    frame.order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < length; i++) {
      frame.putLong(words[i]);
    }
    return frame.array();
  }

  /** A hello from {@code party} with the 8-letter {@code magic} as its payload. */
  public static byte[] hello(int party, String magic) {
    byte[] letters = magic.getBytes(StandardCharsets.US_ASCII);
    if (letters.length != 8) {
      throw new IllegalArgumentException("magic (" + magic + ") must be 8 letters");
    }
    return ByteBuffer.allocate(20).putInt(16).putInt(-1).putInt(party).put(letters).array();
  }
}
