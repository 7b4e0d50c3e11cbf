package dev.cohort.offline.mascot;

import dev.cohort.field.Field;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import javax.crypto.Cipher;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.SecretKeySpec;

/**
 * Expands 128-bit OT keys into field elements: element h of key k is H(k ⊕ h) with H(x) = π(x) ⊕ x,
 * π AES-128 under a fixed public key (Matyas–Meyer–Oseas), reduced into the field. The OT keys are
 * uniform and unknown to the party that must not learn them, so in the ideal-permutation model
 * their expansions are pseudo-random to it; a fixed key lets one cipher serve every OT of a batch
 * (re-keying AES per OT key would cost more than the expansion itself).
 *
 * <p>Reduction: over 2^127 − 1 an element is the low 127 bits (the value p itself, probability
 * 2^−127, maps to 0); over 2^61 − 1 it is the 128-bit block mod p (statistical distance 2^−67 from
 * uniform). Not thread-safe.
 */
final class KeyExpansion {

  private static final int CHUNK_BLOCKS = 4096;
  private static final long M61 = (1L << 61) - 1;
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final Cipher cipher;
  private final int words;
  private final byte[] plain = new byte[16 * CHUNK_BLOCKS];
  private final byte[] encrypted = new byte[16 * CHUNK_BLOCKS];

  KeyExpansion(Field field) {
    this.words = field.words();
    try {
      cipher = Cipher.getInstance("AES/ECB/NoPadding");
      byte[] key = "cohort-mascot-h1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES/ECB/NoPadding is not available", e);
    }
  }

  /**
   * Writes element {@code h} of key {@code j} to element {@code oo + j·per + h} of {@code out}, for
   * {@code j < count} and {@code h < per}; key j is at words {@code [2(ko + j), 2(ko + j) + 2)}.
   */
  void expand(long[] keys, int ko, int count, int per, long[] out, int oo) {
    int total = count * per;
    for (int from = 0; from < total; from += CHUNK_BLOCKS) {
      int n = Math.min(CHUNK_BLOCKS, total - from);
      for (int i = 0; i < n; i++) {
        int e = from + i;
        int j = ko + e / per;
        LONGS.set(plain, 16 * i, keys[2 * j] ^ (e % per));
        LONGS.set(plain, 16 * i + 8, keys[2 * j + 1]);
      }
      try {
        cipher.update(plain, 0, 16 * n, encrypted, 0);
      } catch (ShortBufferException e) {
        throw new IllegalStateException(e);
      }
      for (int i = 0; i < n; i++) {
        long lo = (long) LONGS.get(encrypted, 16 * i) ^ (long) LONGS.get(plain, 16 * i);
        long hi = (long) LONGS.get(encrypted, 16 * i + 8) ^ (long) LONGS.get(plain, 16 * i + 8);
        int o = (oo + from + i) * words;
        if (words == 2) {
          hi &= Long.MAX_VALUE;
          boolean isP = lo == -1L && hi == Long.MAX_VALUE;
          out[o] = isP ? 0 : lo;
          out[o + 1] = isP ? 0 : hi;
        } else {
          out[o] = reduce61(lo, hi);
        }
      }
    }
  }

  /** (hi·2^64 + lo) mod 2^61 − 1, canonical. */
  static long reduce61(long lo, long hi) {
    long h = (hi & M61) + (hi >>> 61); // < 2^61 + 8
    h = (h & M61) + (h >>> 61);
    // h·2^64 = h·8 (mod p): 2^64 = 2^3·2^61 and 2^61 = 1
    long r = ((h << 3) & M61) + (h >>> 58);
    r += (lo & M61) + (lo >>> 61);
    r = (r & M61) + (r >>> 61);
    return r >= M61 ? r - M61 : r;
  }
}
