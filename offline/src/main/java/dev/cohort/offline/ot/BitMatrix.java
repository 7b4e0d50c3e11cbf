package dev.cohort.offline.ot;

/**
 * Bit-matrix transposition for OT extension, one chunk of rows at a time: 128 columns of {@code
 * 64·width} bits (column-major from {@code base}: column c at words {@code [base + c·width, base +
 * (c + 1)·width)}, bit j of the column at bit {@code j & 63} of word {@code j >>> 6}) become {@code
 * 64·width} rows of 128 bits (row j at words {@code 2j} for columns 0–63 and {@code 2j + 1} for
 * columns 64–127, column c at bit {@code c & 63}).
 *
 * <p>The work is done 64×64 bits at a time on 64 longs: six rounds of masked swaps between halves,
 * quarters and so on (Hacker's Delight, §7-3), 6·32 swaps of a few instructions per 4096 bits.
 * Chunks keep the 128 column words of a block within a few kilobytes of each other, so gathering
 * them stays in cache and in the TLB.
 */
final class BitMatrix {

  private BitMatrix() {}

  /**
   * Transposes 128 columns of {@code width} words at {@code base} of {@code columns} into {@code
   * rows[0, 128·width)} (two words per row), using {@code block} (64 words) as scratch.
   */
  static void transpose128(long[] columns, int base, int width, long[] rows, long[] block) {
    for (int b = 0; b < width; b++) {
      for (int half = 0; half < 2; half++) {
        int from = base + 64 * half * width + b;
        for (int k = 0; k < 64; k++) {
          block[k] = columns[from + k * width];
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
