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
    // Round j swaps the off-diagonal j×j sub-blocks of every 2j×2j block: rows k and k + j trade
    // bits. Plain nested loops (rather than one loop with a computed stride) let the JIT unroll
    // them; this halved the transpose's share of a profile of KosExtension.transfer.
    swapRound(a, 32, 0x00000000FFFFFFFFL);
    swapRound(a, 16, 0x0000FFFF0000FFFFL);
    swapRound(a, 8, 0x00FF00FF00FF00FFL);
    swapRound(a, 4, 0x0F0F0F0F0F0F0F0FL);
    swapRound(a, 2, 0x3333333333333333L);
    swapRound(a, 1, 0x5555555555555555L);
  }

  private static void swapRound(long[] a, int j, long mask) {
    for (int base = 0; base < 64; base += 2 * j) {
      for (int k = base; k < base + j; k++) {
        long t = ((a[k] >>> j) ^ a[k + j]) & mask;
        a[k] ^= t << j;
        a[k + j] ^= t;
      }
    }
  }
}
