package dev.cohort.offline.ot;

/**
 * Bit-matrix transposition for OT extension: 128 columns of {@code 64·words} bits (column-major,
 * column c at words {@code [c·words, (c + 1)·words)}, bit j of the column at bit {@code j & 63} of
 * word {@code j >>> 6}) become {@code 64·words} rows of 128 bits (row j at words {@code 2j} for
 * columns 0–63 and {@code 2j + 1} for columns 64–127, column c at bit {@code c & 63}).
 *
 * <p>The work is done 64×64 bits at a time on 64 longs: six rounds of masked swaps between halves,
 * quarters and so on (Hacker's Delight, §7-3), about 6·32 swaps of three or four instructions per
 * 4096 bits.
 */
final class BitMatrix {

  private BitMatrix() {}

  /**
   * Transposes the first 128 columns of {@code columns} (each {@code words} long) into {@code rows}
   * (at least {@code 128·words} longs: 2 per row).
   */
  static void transpose128(long[] columns, int words, long[] rows) {
    long[] block = new long[64];
    for (int b = 0; b < words; b++) {
      for (int half = 0; half < 2; half++) {
        int base = 64 * half * words + b;
        for (int k = 0; k < 64; k++) {
          block[k] = columns[base + k * words];
        }
        transpose64(block);
        int out = 128 * b + half;
        for (int j = 0; j < 64; j++) {
          rows[out + 2 * j] = block[j];
        }
      }
    }
  }

  /** Transposes a 64×64 bit matrix in place: afterwards bit k of a[j] is the old bit j of a[k]. */
  static void transpose64(long[] a) {
    long mask = 0x00000000FFFFFFFFL;
    for (int j = 32; j != 0; j >>>= 1, mask ^= mask << j) {
      for (int k = 0; k < 64; k = ((k | j) + 1) & ~j) {
        long t = ((a[k] >>> j) ^ a[k | j]) & mask;
        a[k] ^= t << j;
        a[k | j] ^= t;
      }
    }
  }
}
