package dev.cohort.offline.ot;

import dev.cohort.random.Prg;

/**
 * The sums Σ_j χ_j·row_j in GF(2^128) of the KOS correlation check for both directions of a pair:
 * over this party's receiver matrix t (with its choice column r, whose sum Σ_j r_j·χ_j is x) and
 * over its sender matrix q, given column by column, one chunk of rows at a time, with the
 * coefficients χ_j read from a PRG (two words per row, in row order).
 *
 * <p>Java 17 has no carry-less multiply intrinsic, so the sum is never computed one product at a
 * time. Writing row_j = Σ_c row_j[c]·X^c over its 128 bits (the columns c), the sum is Σ_c X^c·S_c
 * with S_c = XOR of the χ_j of the rows whose bit c is set. For each block of 64 rows, the method
 * of the four Russians builds 8 tables of the 256 XOR combinations of 8 consecutive χ_j, and each
 * column's 64-bit word of the block then costs 8 lookups. The S_c accumulate unreduced, and the
 * results shift, add and reduce once per batch ({@link Gf128#shiftedSum}).
 *
 * <p>Building the tables costs about as much as the lookups of one matrix, so both directions of a
 * pair share one challenge stream and every table serves 257 columns. Each check alone is the KOS
 * check with uniform χ; what one direction reveals (the honest receiver's x and t) depends on that
 * direction's choices, seeds and Δ only, never on the other direction's Δ, so a common χ gives a
 * cheating peer nothing toward the other check.
 *
 * <p>Not thread-safe; one instance per pair and call.
 */
final class CorrelationCheck {

  private final Prg chi;
  private final long[] coefficients = new long[128];
  private final long[] tableLo = new long[8 * 256];
  private final long[] tableHi = new long[8 * 256];
  private final long[] receiverSums = new long[2 * 129]; // S_0 .. S_127 of t, then x
  private final long[] senderSums = new long[2 * 128]; // S_0 .. S_127 of q

  CorrelationCheck(Prg chi) {
    this.chi = chi;
  }

  /**
   * Adds the next {@code 64·width} rows: the chunk of the 128-column matrices {@code receiver} and
   * {@code sender} that starts at word {@code 128·first} (column c at {@code 128·first + c·width}),
   * and the choice bits {@code choiceBits[first, first + width)}.
   */
  void add(long[] receiver, long[] choiceBits, long[] sender, int first, int width) {
    long[] lo = tableLo;
    long[] hi = tableHi;
    long[] t = receiverSums;
    long[] q = senderSums;
    int base = 128 * first;
    for (int b = 0; b < width; b++) {
      buildTables();
      for (int c = 0; c < 128; c++) {
        long w = receiver[base + c * width + b];
        t[2 * c] ^= lookup(lo, w);
        t[2 * c + 1] ^= lookup(hi, w);
        long v = sender[base + c * width + b];
        q[2 * c] ^= lookup(lo, v);
        q[2 * c + 1] ^= lookup(hi, v);
      }
      long w = choiceBits[first + b];
      t[256] ^= lookup(lo, w);
      t[257] ^= lookup(hi, w);
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

  /**
   * Table g, entry v: the XOR of χ_{8g+k} over the bits k set in v, for the next 64 rows, one XOR
   * per entry. (Building each table from two 16-entry nibble tables instead was slower.)
   */
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

  /** The receiver's check values: x into {@code out[0, 2)}, t = Σ_j χ_j·t_j into {@code [2, 4)}. */
  void receiverResult(long[] out) {
    out[0] = receiverSums[256];
    out[1] = receiverSums[257];
    Gf128.shiftedSum(receiverSums, out, 2);
  }

  /** The sender's side: Σ_j χ_j·q_j into {@code out[0, 2)}. */
  void senderResult(long[] out) {
    Gf128.shiftedSum(senderSums, out, 0);
  }
}
