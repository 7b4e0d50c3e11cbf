package dev.cohort.offline.ot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.cohort.random.Prg;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

class TmmoHashTest {

  private static final byte[] KEY = {
    0x24,
    0x3f,
    0x6a,
    (byte) 0x88,
    (byte) 0x85,
    (byte) 0xa3,
    0x08,
    (byte) 0xd3,
    0x13,
    0x19,
    (byte) 0x8a,
    0x2e,
    0x03,
    0x70,
    0x73,
    0x44
  };

  /** π on one block: AES-128 under the fixed key, words little-endian. */
  private static long[] pi(Cipher aes, long lo, long hi) throws Exception {
    ByteBuffer in = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    in.putLong(lo).putLong(hi);
    ByteBuffer out = ByteBuffer.wrap(aes.doFinal(in.array())).order(ByteOrder.LITTLE_ENDIAN);
    return new long[] {out.getLong(), out.getLong()};
  }

  @Test
  void hash_rowsAcrossChunks_matchesOneBlockAtATime() throws Exception {
    int count = 4096 + 17; // more than one chunk
    long[] rows = new long[2 * count];
    Prg.seeded(5).fill(rows, 0, rows.length);
    long[] mask = {0x1234L, -7L};
    long[] tweak = {1L << 40, 0x0000_0002_0000_0001L};
    long[] out = new long[2 * count + 6];
    new TmmoHash().hash(rows, mask, count, tweak, out, 3);

    Cipher aes = Cipher.getInstance("AES/ECB/NoPadding");
    aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(KEY, "AES"));
    long[] expected = new long[2 * count + 6];
    for (int j = 0; j < count; j++) {
      long[] once = pi(aes, rows[2 * j] ^ mask[0], rows[2 * j + 1] ^ mask[1]);
      long[] twice = pi(aes, once[0] ^ (tweak[0] + j), once[1] ^ tweak[1]);
      expected[6 + 2 * j] = twice[0] ^ once[0];
      expected[6 + 2 * j + 1] = twice[1] ^ once[1];
    }
    assertArrayEquals(expected, out);
  }
}
