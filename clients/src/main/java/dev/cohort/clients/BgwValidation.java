package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;

/**
 * A server's side of the BGW submission check ({@link BgwSubmissions}) for one session's shape: the
 * check values of its shares, the verdict on all servers' check values, and its shares of the
 * values themselves.
 */
final class BgwValidation {

  /** Verdicts. */
  static final int VALID = 0;

  static final int INCONSISTENT = 1;
  static final int OUT_OF_RANGE = 2;

  private final Shamir shamir;
  private final Field field;
  private final Shape shape;
  private final int m;
  private final long[] rho;
  private final long[] rhoSquares;
  private final long[] scratch;
  private final long[] powers; // 2^j at the bit's position, per column
  private final long[] biases; // 2^(b-1) per column
  private final long[] zero;

  BgwValidation(Shamir shamir, Shape shape) {
    this.shamir = shamir;
    this.field = shamir.field;
    this.shape = shape;
    this.m = shape.elements();
    this.rho = field.alloc(m);
    this.rhoSquares = field.alloc(m);
    this.scratch = field.alloc(m);
    this.powers = field.alloc(m);
    this.biases = field.alloc(shape.columns());
    this.zero = field.alloc(1);
    for (int c = 0; c < shape.columns(); c++) {
      for (int j = 0; j < shape.bits(c); j++) {
        field.encode(1L << j, powers, shape.offset(c) + j);
      }
      field.encode(1L << (shape.bits(c) - 1), biases, c);
    }
  }

  /** Draws the session's coefficients from its agreed seed (16 bytes). */
  void coefficients(byte[] seed) {
    field.random(Prg.fromKey(seed, 1), rho, 0, m);
    field.random(Prg.fromKey(seed, 2), rhoSquares, 0, m);
  }

  /**
   * This server's check values of one submission ({@code shares}, {@link BgwSubmissions#elements}
   * elements): {@code y} to element {@code 2k} of {@code out}, {@code w} to {@code 2k + 1}.
   */
  void checkValues(long[] shares, long[] out, int k) {
    field.innerProduct(rho, 0, shares, 0, m, out, 2 * k);
    field.add(out, 2 * k, shares, m, out, 2 * k, 1);
    field.mul(shares, 0, shares, 0, scratch, 0, m);
    field.sub(scratch, 0, shares, 0, scratch, 0, m);
    field.innerProduct(rhoSquares, 0, scratch, 0, m, out, 2 * k + 1);
    field.add(out, 2 * k + 1, shares, m + 1, out, 2 * k + 1, 1);
  }

  /** The verdict on submission {@code k} from every server's check values ({@code all[i]}). */
  int verdict(long[][] all, int k, long[] one) {
    if (!shamir.onDegreeT(all, 2 * k, one)) {
      return INCONSISTENT;
    }
    shamir.interpolateAtZero(all, 2 * k + 1, one, 0);
    return field.equal(one, 0, zero, 0) ? VALID : OUT_OF_RANGE;
  }

  /**
   * This server's share of value {@code column} of a submission: {@code Σ_j 2^j s_j − 2^(b−1)}, to
   * element {@code oo} of {@code out}.
   */
  void valueShare(long[] shares, int column, long[] out, int oo) {
    int off = shape.offset(column);
    field.innerProduct(powers, off, shares, off, shape.bits(column), out, oo);
    field.sub(out, oo, biases, column, out, oo, 1);
  }
}
