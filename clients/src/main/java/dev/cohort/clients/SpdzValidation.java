package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;

/**
 * A server's side of the SPDZ submission check ({@link SpdzSubmissions}) for one session's
 * candidates: their bits as authenticated shares, the check value {@code t} of each, and the values
 * of those that pass. Everything here is local: linear operations of the suite on whole columns.
 *
 * <p>Columns are bit-major: element {@code j·C + k} is bit {@code j} of candidate {@code k} (C
 * candidates), so that one {@link Suite#sumRows} composes every candidate's check value, or every
 * candidate's value from its bits.
 */
final class SpdzValidation {

  /** A granted client's triples, as a server stores them: m elements per column. */
  static final int A_SHARE = 0;

  static final int A_MAC = 1;
  static final int B_SHARE = 2;
  static final int B_MAC = 3;
  static final int C_SHARE = 4;
  static final int C_MAC = 5;
  static final int TRIPLE_COLUMNS = 6;

  private final Suite suite;
  private final Field field;
  private final Shape shape;
  private final int m;
  private final int w;
  private final long[] rho;
  private final long[] rhoSquares;
  private final long[][] powers; // per column: 2^j, j < b
  private final long[] negativeBiases; // per column: −2^(b−1)
  private Shares x; // ⟨x_j⟩ of the candidates last checked, bit-major
  private int candidates;

  SpdzValidation(Suite suite, Shape shape) {
    this.suite = suite;
    this.field = suite.field();
    this.shape = shape;
    this.m = shape.elements();
    this.w = field.words();
    this.rho = field.alloc(m);
    this.rhoSquares = field.alloc(m);
    this.powers = new long[shape.columns()][];
    this.negativeBiases = field.alloc(shape.columns());
    for (int c = 0; c < shape.columns(); c++) {
      powers[c] = field.alloc(shape.bits(c));
      for (int j = 0; j < shape.bits(c); j++) {
        field.encode(1L << j, powers[c], j);
      }
      field.encode(-(1L << (shape.bits(c) - 1)), negativeBiases, c);
    }
  }

  /** Draws the session's coefficients ρ and ρ' from its agreed seed (16 bytes). */
  void coefficients(byte[] seed) {
    field.random(Prg.fromKey(seed, 1), rho, 0, m);
    field.random(Prg.fromKey(seed, 2), rhoSquares, 0, m);
  }

  /**
   * This server's shares of the check values {@code t} of {@code triples.length} candidates, one
   * each: {@code triples[k]} holds candidate k's triples ({@link #TRIPLE_COLUMNS} columns of m
   * elements), {@code words[k]} what it submitted ({@code d ‖ e}). Keeps the candidates' bits for
   * {@link #values}.
   */
  Shares checkValues(long[][] triples, long[][] words) {
    int count = triples.length;
    Shares a = gather(triples, A_SHARE, A_MAC, count);
    Shares b = gather(triples, B_SHARE, B_MAC, count);
    Shares c = gather(triples, C_SHARE, C_MAC, count);
    long[] d = gather(words, 0, count);
    long[] e = gather(words, 1, count);
    long[] de = field.alloc(m * count);
    field.mul(d, 0, e, 0, de, 0, m * count);
    Shares xs = suite.addConstants(a, d);
    Shares ys = suite.addConstants(b, e);
    Shares z =
        suite.addConstants(
            suite.add(c, suite.add(suite.scaleEach(b, d), suite.scaleEach(a, e))), de);
    Shares consistent = suite.sub(xs, ys); // 0 where both maskings hide the same value
    Shares square = suite.sub(z, xs); // x·y − x: 0 where x = y is a bit
    this.x = xs;
    this.candidates = count;
    return suite.add(
        suite.sumRows(consistent, count, rho), suite.sumRows(square, count, rhoSquares));
  }

  /**
   * This server's shares of the values of the candidates with {@code valid[k]} (of the last {@link
   * #checkValues}), in candidate order: one column of {@code validCount} per value of the shape.
   */
  Shares[] values(boolean[] valid, int validCount) {
    Shares[] out = new Shares[shape.columns()];
    for (int col = 0; col < out.length; col++) {
      Shares rows = x.slice(shape.offset(col) * candidates, shape.bits(col) * candidates, w);
      Shares all =
          suite.addConstant(suite.sumRows(rows, candidates, powers[col]), negativeBiases, col);
      out[col] = select(all, valid, validCount);
    }
    return out;
  }

  private Shares select(Shares all, boolean[] valid, int validCount) {
    if (validCount == all.length) {
      return all;
    }
    long[] share = field.alloc(validCount);
    long[] mac = all.mac == null ? null : field.alloc(validCount);
    int at = 0;
    for (int k = 0; k < valid.length; k++) {
      if (valid[k]) {
        System.arraycopy(all.share, k * w, share, at * w, w);
        if (mac != null) {
          System.arraycopy(all.mac, k * w, mac, at * w, w);
        }
        at++;
      }
    }
    return new Shares(validCount, share, mac);
  }

  /** Columns {@code shareColumn} and {@code macColumn} of every candidate's triples, bit-major. */
  private Shares gather(long[][] triples, int shareColumn, int macColumn, int count) {
    return new Shares(
        m * count, gather(triples, shareColumn, count), gather(triples, macColumn, count));
  }

  /** Column {@code column} (m elements) of every candidate's {@code rows[k]}, bit-major. */
  private long[] gather(long[][] rows, int column, int count) {
    long[] out = field.alloc(m * count);
    for (int k = 0; k < count; k++) {
      long[] row = rows[k];
      int from = column * m * w;
      for (int j = 0; j < m; j++) {
        System.arraycopy(row, from + j * w, out, (j * count + k) * w, w);
      }
    }
    return out;
  }
}
