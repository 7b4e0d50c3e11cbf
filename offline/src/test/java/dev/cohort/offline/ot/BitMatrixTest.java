package dev.cohort.offline.ot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.random.Prg;
import org.junit.jupiter.api.Test;

class BitMatrixTest {

  @Test
  void transpose128_randomColumns_matchesBitByBitTranspose() {
    int words = 5;
    int base = 3;
    long[] columns = new long[base + 128 * words];
    Prg.seeded(4).fill(columns, 0, columns.length);
    long[] rows = new long[128 * words];
    BitMatrix.transpose128(columns, base, words, rows, new long[64]);
    for (int j = 0; j < 64 * words; j++) {
      for (int c = 0; c < 128; c++) {
        long expected = columns[base + c * words + (j >>> 6)] >>> (j & 63) & 1;
        long actual = rows[2 * j + (c >>> 6)] >>> (c & 63) & 1;
        assertEquals(expected, actual, "row " + j + " column " + c);
      }
    }
  }
}
