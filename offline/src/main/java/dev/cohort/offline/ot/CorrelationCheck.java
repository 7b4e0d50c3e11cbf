package dev.cohort.offline.ot;

import dev.cohort.random.Prg;

/**
 * The sum Σ_j χ_j·row_j in GF(2^128) of the KOS correlation check, over a bit matrix given column
 * by column, one chunk of rows at a time, with the coefficients χ_j read from a PRG (two words per
 * row, in row order). An optional extra column e gives Σ_j e_j·χ_j as well (the receiver's x).
 *
 * <p>Java 17 has no carry-less multiply intrinsic, so the sum is never computed one product at a
 * time. Writing row_j = Σ_c row_j[c]·X^c over its 128 bits (the columns c), the sum is Σ_c X^c·S_c
 * with S_c = XOR of the χ_j of the rows whose bit c is set. For each block of 64 rows, the method
 * of the four Russians builds 8 tables of the 256 XOR combinations of 8 consecutive χ_j, and each
 * column's 64-bit word of the block then costs 8 lookups; every column shares the tables. The S_c
 * accumulate unreduced, and {@link #result} shifts, adds and reduces once per batch ({@link
 * Gf128#shiftedSum}).
 *
 * <p>Not thread-safe; one instance per check.
 */
final class CorrelationCheck {

  private final Prg chi;
  private final long[] coefficients = new long[128];
  private final long[] tableLo = new long[8 * 256];
  private final long[] tableHi = new long[8 * 256];
  private final long[] sums = new long[2 * 129]; // S_0 .. S_127, then the extra column's sum

  CorrelationCheck(Prg chi) {
    this.chi = chi;
  }

  /**
   * Adds the next {@code 64·width} rows: 128 columns of {@code width} words at {@code base} of
   * {@code columns} (column c at {@code base + c·width}), and, unless {@code extra} is null, the
   * extra column's words at {@code extra[extraBase, extraBase + width)}.
   */
  void add(long[] columns, int base, int width, long[] extra, int extraBase) {
    long[] lo = tableLo;
    long[] hi = tableHi;
    long[] s = sums;
    for (int b = 0; b < width; b++) {
      buildTables();
      for (int c = 0; c < 128; c++) {
        long w = columns[base + c * width + b];
        s[2 * c] ^= lookup(lo, w);
        s[2 * c + 1] ^= lookup(hi, w);
      }
      if (extra != null) {
        long w = extra[extraBase + b];
        s[256] ^= lookup(lo, w);
        s[257] ^= lookup(hi, w);
      }
    }
  }

  /** XOR of the table entries that the 8 bytes of {@code w} select, one table per byte. */
  private static long lookup(long[] table, long w) {
    return table[(int) w & 255]
        ^ table[256 + ((int) (w >>> 8) & 255)]
        ^ table[512 + ((int) (w >>> 16) & 255)]
        ^ table[768 + ((int) (w >>> 24) & 255)]
        ^ table[1024 + ((int) (w >>> 32) & 255)]
        ^ table[1280 + ((int) (w >>> 40) & 255)]
        ^ table[1536 + ((int) (w >>> 48) & 255)]
        ^ table[1792 + (int) (w >>> 56)];
  }

  /** Table g, entry v: the XOR of χ_{8g+k} over the bits k set in v, for the next 64 rows. */
  private void buildTables() {
    long[] c = coefficients;
    long[] lo = tableLo;
    long[] hi = tableHi;
    chi.fill(c, 0, 128);
    for (int g = 0; g < 8; g++) {
      int base = 256 * g;
      for (int k = 0; k < 8; k++) {
        long chiLo = c[2 * (8 * g + k)];
        long chiHi = c[2 * (8 * g + k) + 1];
        int step = 1 << k;
        for (int v = 0; v < step; v++) { // entries with top bit k: the ones below, plus χ
          lo[base + step + v] = lo[base + v] ^ chiLo;
          hi[base + step + v] = hi[base + v] ^ chiHi;
        }
      }
    }
  }

  /** Σ_j χ_j·row_j into {@code out[offset, +2)}. */
  void result(long[] out, int offset) {
    Gf128.shiftedSum(sums, out, offset);
  }

  /** Σ_j e_j·χ_j of the extra column into {@code out[offset, +2)}. */
  void extraResult(long[] out, int offset) {
    out[offset] = sums[256];
    out[offset + 1] = sums[257];
  }
}
