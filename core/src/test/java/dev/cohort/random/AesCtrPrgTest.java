package dev.cohort.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class AesCtrPrgTest {

  static final byte[] KEY = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");

  static long[] draw(Prg prg, int n) {
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = prg.nextLong();
    }
    return out;
  }

  @Test
  void seeded_sameSeed_sameSequence() {
    assertArrayEquals(draw(Prg.seeded(42), 1000), draw(Prg.seeded(42), 1000));
  }

  @Test
  void seeded_differentSeeds_differentSequences() {
    assertFalse(Arrays.equals(draw(Prg.seeded(42), 16), draw(Prg.seeded(43), 16)));
  }

  @Test
  void fromKey_differentStreams_differentSequences() {
    long[] s0 = draw(Prg.fromKey(KEY, 0), 16);
    long[] s1 = draw(Prg.fromKey(KEY, 1), 16);
    long[] sMinus1 = draw(Prg.fromKey(KEY, -1), 16);
    assertFalse(Arrays.equals(s0, s1));
    assertFalse(Arrays.equals(s0, sMinus1));
    assertArrayEquals(s1, draw(Prg.fromKey(KEY, 1), 16));
  }

  @Test
  void rekey_midStream_sameAsFreshGenerator() {
    byte[] other = HexFormat.of().parseHex("f0e0d0c0b0a090807060504030201000");
    AesCtrPrg prg = new AesCtrPrg(KEY, 3);
    draw(prg, 777); // part of a chunk is left over, and must not be handed out after the rekey
    prg.rekey(other, 5);
    assertArrayEquals(draw(new AesCtrPrg(other, 5), 1500), draw(prg, 1500));
    prg.rekey(KEY, 3);
    assertArrayEquals(draw(new AesCtrPrg(KEY, 3), 10), draw(prg, 10));
    assertThrows(IllegalArgumentException.class, () -> prg.rekey(new byte[15], 0));
  }

  @Test
  void secure_twoInstances_differentSequences() {
    assertFalse(Arrays.equals(draw(Prg.secure(), 4), draw(Prg.secure(), 4)));
  }

  @Test
  void fill_anySplit_equalsRepeatedNextLong() {
    // Lengths cross the 512-word chunk boundary at different points.
    long[] expected = draw(Prg.seeded(9), 3000);
    Prg prg = Prg.seeded(9);
    long[] out = new long[3000 + 2];
    int at = 1;
    for (int len : new int[] {0, 1, 7, 504, 1, 511, 512, 513, 951}) {
      prg.fill(out, at, len);
      at += len;
    }
    assertEquals(3001, at);
    assertEquals(0, out[0]);
    assertEquals(0, out[3001]);
    assertArrayEquals(expected, Arrays.copyOfRange(out, 1, 3001));
  }

  @Test
  void fill_mixedWithNextLong_continuesOneSequence() {
    long[] expected = draw(Prg.seeded(3), 1100);
    Prg prg = Prg.seeded(3);
    long[] got = new long[1100];
    got[0] = prg.nextLong();
    prg.fill(got, 1, 600);
    got[601] = prg.nextLong();
    prg.fill(got, 602, 498);
    assertArrayEquals(expected, got);
  }

  @Test
  void fill_badRange_throwsWithoutDrawing() {
    Prg prg = Prg.seeded(5);
    assertThrows(IndexOutOfBoundsException.class, () -> prg.fill(new long[4], 2, 3));
    assertEquals(Prg.seeded(5).nextLong(), prg.nextLong());
  }

  @Test
  void nextLong_firstWord_isLittleEndianAesOfCounterBlock() throws Exception {
    // Block 0 of stream s is AES_k(s as 8 big-endian bytes || 0^8).
    long stream = 0x0102030405060708L;
    Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
    ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"));
    byte[] block = ecb.doFinal(HexFormat.of().parseHex("01020304050607080000000000000000"));
    long expectedFirst = 0;
    long expectedSecond = 0;
    for (int i = 7; i >= 0; i--) {
      expectedFirst = (expectedFirst << 8) | (block[i] & 0xff);
      expectedSecond = (expectedSecond << 8) | (block[8 + i] & 0xff);
    }
    Prg prg = Prg.fromKey(KEY, stream);
    assertEquals(expectedFirst, prg.nextLong());
    assertEquals(expectedSecond, prg.nextLong());
  }

  @Test
  void nextBytes_anyLength_matchesKeystreamAndKeepsWordsAligned() {
    long[] words = draw(Prg.seeded(11), 4);
    Prg prg = Prg.seeded(11);
    byte[] three = new byte[3];
    prg.nextBytes(three);
    for (int i = 0; i < 3; i++) {
      assertEquals((byte) (words[0] >>> (8 * i)), three[i]);
    }
    assertEquals(words[1], prg.nextLong(), "the rest of a partly used word is dropped");
    byte[] empty = new byte[0];
    prg.nextBytes(empty);
    assertEquals(words[2], prg.nextLong());
  }

  @Test
  void nextBytes_longerThanChunk_fillsEveryByte() {
    byte[] out = new byte[10_000];
    Prg.seeded(1).nextBytes(out);
    int zeros = 0;
    for (byte b : out) {
      zeros += b == 0 ? 1 : 0;
    }
    assertTrue(zeros < 100, zeros + " zero bytes of 10000, expected about 39");
  }

  @Test
  void nextLong_100kWords_everyBitBalanced() {
    int n = 100_000;
    int[] ones = new int[64];
    Prg prg = Prg.seeded(2024);
    for (int i = 0; i < n; i++) {
      long w = prg.nextLong();
      for (int bit = 0; bit < 64; bit++) {
        ones[bit] += (int) ((w >>> bit) & 1);
      }
    }
    // Each count is Binomial(n, 1/2): mean 50000, standard deviation about 158. Allow 8 sigma.
    for (int bit = 0; bit < 64; bit++) {
      assertTrue(
          Math.abs(ones[bit] - n / 2) < 1300, "bit " + bit + " was set " + ones[bit] + " times");
    }
  }

  @Test
  void constructor_wrongKeyLength_throwsNamingLength() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new AesCtrPrg(new byte[15], 0));
    assertEquals("PRG key must be 16 bytes, got 15", e.getMessage());
  }

  @Test
  void constructor_keyMutatedAfterwards_keepsOriginalKey() {
    byte[] key = KEY.clone();
    Prg prg = new AesCtrPrg(key, 0);
    Arrays.fill(key, (byte) 0);
    assertArrayEquals(draw(new AesCtrPrg(KEY, 0), 8), draw(prg, 8));
  }

  @Test
  void copyAt_anyPosition_continuesTheStreamBitForBit() {
    AesCtrPrg prg = new AesCtrPrg(KEY, 7);
    long[] whole = new long[3000];
    prg.fill(whole, 0, whole.length);
    assertEquals(3000, prg.position());
    // positions inside a block, on block and chunk edges (512 words per chunk), and far past
    for (int at : new int[] {0, 1, 2, 511, 512, 513, 1024, 1025, 2999}) {
      AesCtrPrg copy = prg.copyAt(at);
      assertEquals(at, copy.position());
      long[] rest = new long[whole.length - at];
      copy.fill(rest, 0, rest.length);
      assertArrayEquals(Arrays.copyOfRange(whole, at, whole.length), rest, "at " + at);
      assertEquals(whole.length, copy.position());
    }
  }

  @Test
  void seek_backAndForth_sameWordsAsOneGenerator() {
    AesCtrPrg prg = new AesCtrPrg(KEY, 3);
    long[] whole = draw(prg, 1500);
    AesCtrPrg other = new AesCtrPrg(new byte[16], 0);
    other.follow(prg, 1200);
    assertEquals(whole[1200], other.nextLong());
    other.seek(5);
    assertEquals(whole[5], other.nextLong());
    assertEquals(6, other.position());
    byte[] bytes = new byte[12]; // a word and a half: rounds up to two words
    other.nextBytes(bytes);
    assertEquals(8, other.position());
    assertEquals(whole[8], other.nextLong());
    assertThrows(IllegalArgumentException.class, () -> other.seek(-1));
  }

  @Test
  void position_rekey_startsAtZero() {
    AesCtrPrg prg = new AesCtrPrg(KEY, 0);
    draw(prg, 700);
    assertEquals(700, prg.position());
    prg.rekey(KEY, 0);
    assertEquals(0, prg.position());
    assertEquals(new AesCtrPrg(KEY, 0).nextLong(), prg.nextLong());
  }
}
