package dev.cohort.offline.ot;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * The correlation-robust hash that turns the correlated rows of an OT extension into independent
 * keys: TMMO, H(x, i) = π(π(x) ⊕ i) ⊕ π(x), with π the AES-128 permutation under a fixed public key
 * and i a 128-bit tweak unique to the OT [GKWY20] (Guo, Katz, Wang, Yu: "Efficient and secure
 * multiparty computation from fixed-key block ciphers", S&P 2020; tweakable circular correlation
 * robustness in the ideal-permutation model).
 *
 * <p>Rows are hashed in chunks of {@value #CHUNK_ROWS}: each chunk is two {@code Cipher.update}
 * calls of AES/ECB over 64 KiB, so the JDK's AES-NI intrinsics do the work. Not thread-safe.
 */
final class TmmoHash {

  private static final int CHUNK_ROWS = 4096;
  private static final int CHUNK_BYTES = 16 * CHUNK_ROWS;

  /**
   * The fixed public key of π; any fixed key serves, this one is the first 16 bytes of π's digits.
   */
  private static final byte[] FIXED_KEY = {
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

  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final Cipher aes;
  private final byte[] input = new byte[CHUNK_BYTES];
  private final byte[] once = new byte[CHUNK_BYTES];
  private final byte[] twice = new byte[CHUNK_BYTES];

  TmmoHash() {
    try {
      aes = Cipher.getInstance("AES/ECB/NoPadding");
      aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(FIXED_KEY, "AES"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/ECB/NoPadding is not available", e);
    }
  }

  /**
   * Hashes {@code count} rows (two words each) of {@code rows}, each XORed with {@code mask} (two
   * words) first, into {@code out} from row {@code outRow} on (words {@code [2·outRow, 2·(outRow +
   * count))}); row j gets the tweak {@code (tweak[0] + j, tweak[1])}.
   */
  void hash(long[] rows, long[] mask, int count, long[] tweak, long[] out, int outRow) {
    long maskLo = mask[0];
    long maskHi = mask[1];
    long tweakHigh = tweak[1];
    for (int start = 0; start < count; start += CHUNK_ROWS) {
      int n = Math.min(CHUNK_ROWS, count - start);
      for (int j = 0; j < n; j++) {
        LONG_LE.set(input, 16 * j, rows[2 * (start + j)] ^ maskLo);
        LONG_LE.set(input, 16 * j + 8, rows[2 * (start + j) + 1] ^ maskHi);
      }
      permute(input, once, 16 * n);
      long tweakLow = tweak[0] + start;
      for (int j = 0; j < n; j++) {
        LONG_LE.set(input, 16 * j, (long) LONG_LE.get(once, 16 * j) ^ (tweakLow + j));
        LONG_LE.set(input, 16 * j + 8, (long) LONG_LE.get(once, 16 * j + 8) ^ tweakHigh);
      }
      permute(input, twice, 16 * n);
      for (int j = 0; j < n; j++) {
        int o = 2 * (outRow + start + j);
        out[o] = (long) LONG_LE.get(twice, 16 * j) ^ (long) LONG_LE.get(once, 16 * j);
        out[o + 1] = (long) LONG_LE.get(twice, 16 * j + 8) ^ (long) LONG_LE.get(once, 16 * j + 8);
      }
    }
  }

  private void permute(byte[] in, byte[] out, int bytes) {
    try {
      int produced = aes.update(in, 0, bytes, out, 0);
      if (produced != bytes) {
        throw new IllegalStateException("AES/ECB produced " + produced + " of " + bytes + " bytes");
      }
    } catch (ShortBufferException e) {
      throw new IllegalStateException("AES/ECB output buffer too short", e);
    }
  }
}
