package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;

/**
 * A server's side of the SPDZ submission check ({@link SpdzSubmissions}) for one session's
 * candidates: the check value {@code t} of each, and the values of those that pass, as this
 * server's authenticated shares. Everything here is local.
 *
 * <p>With {@code x = a + d}, {@code y = b + e} and {@code z = c + d·b + e·a + d·e}, the check value
 * is a linear form in the triple with public coefficients, plus a public constant:
 *
 * <pre>
 *   t = Σ_j ρ_j (x_j − y_j) + ρ'_j (z_j − x_j)
 *     = Σ_j (ρ_j + ρ'_j (e_j − 1))·a_j + (ρ'_j d_j − ρ_j)·b_j + ρ'_j·c_j      (shares and MACs alike)
 *     + Σ_j ρ_j (d_j − e_j) + ρ'_j d_j (e_j − 1)                               (public: addConstants)
 * </pre>
 *
 * so each candidate costs three inner products per column over its own triples, read where they are
 * stored, and no vector of x, y or z is ever built. A value is {@code Σ_j 2^j x_j − 2^(b−1) = Σ_j
 * 2^j a_j + (Σ_j 2^j d_j − 2^(b−1))} the same way. Linear forms with public coefficients act on
 * value shares and MAC shares alike, as for every linear sharing; public constants go through the
 * suite ({@link Suite#addConstants}), which knows who adds what.
 */
final class SpdzValidation {

  private final Suite suite;
  private final Field field;
  private final Shape shape;
  private final int m;
  private final int w;
  private final long[] rho;
  private final long[] rhoSquares;
  private final long[] powers; // 2^j at the bit's position in its value
  private final long[] biases; // 2^(b−1) per column
  private final long[] minusOne;
  private final long[] coefficientA;
  private final long[] coefficientB;
  private final long[] scratch;
  private final long[] one;

  SpdzValidation(Suite suite, Shape shape) {
    this.suite = suite;
    this.field = suite.field();
    this.shape = shape;
    this.m = shape.elements();
    this.w = field.words();
    this.rho = field.alloc(m);
    this.rhoSquares = field.alloc(m);
    this.powers = field.alloc(m);
    this.biases = field.alloc(shape.columns());
    for (int c = 0; c < shape.columns(); c++) {
      for (int j = 0; j < shape.bits(c); j++) {
        field.encode(1L << j, powers, shape.offset(c) + j);
      }
      field.encode(1L << (shape.bits(c) - 1), biases, c);
    }
    this.minusOne = field.alloc(1);
    field.encode(-1, minusOne, 0);
    this.coefficientA = field.alloc(m);
    this.coefficientB = field.alloc(m);
    this.scratch = field.alloc(m);
    this.one = field.alloc(1);
  }

  /** Draws the session's coefficients ρ and ρ' from its agreed seed (16 bytes). */
  void coefficients(byte[] seed) {
    field.random(Prg.fromKey(seed, 1), rho, 0, m);
    field.random(Prg.fromKey(seed, 2), rhoSquares, 0, m);
  }

  /**
   * This server's shares of the check values {@code t} of {@code triples.length} candidates, one
   * each: {@code triples[k]} says where candidate k's m triples are, {@code words[k]} holds what it
   * submitted ({@code d ‖ e}).
   */
  Shares checkValues(MaskRounds.Grant[] triples, long[][] words) {
    int count = triples.length;
    long[] share = field.alloc(count);
    long[] mac = field.alloc(count);
    long[] constants = field.alloc(count);
    for (int k = 0; k < count; k++) {
      Triples t = triples[k].block();
      int at = triples[k].offset();
      long[] de = words[k];
      // coefficient of a: ρ + ρ'·(e − 1); of b: ρ'·d − ρ; of c: ρ'
      field.addScalar(de, m, minusOne, 0, scratch, 0, m); // e − 1
      field.mul(rhoSquares, 0, scratch, 0, coefficientA, 0, m);
      field.add(coefficientA, 0, rho, 0, coefficientA, 0, m);
      field.mul(rhoSquares, 0, de, 0, coefficientB, 0, m); // ρ'·d
      field.innerProduct(coefficientB, 0, scratch, 0, m, constants, k); // Σ ρ'·d·(e − 1)
      field.sub(coefficientB, 0, rho, 0, coefficientB, 0, m);
      form(t.a().share, t.b().share, t.c().share, at, share, k);
      form(t.a().mac, t.b().mac, t.c().mac, at, mac, k);
      field.sub(de, 0, de, m, scratch, 0, m); // d − e
      field.innerProduct(rho, 0, scratch, 0, m, one, 0);
      field.add(constants, k, one, 0, constants, k, 1);
    }
    return suite.addConstants(new Shares(count, share, mac), constants);
  }

  /** The linear form of columns a, b, c from element {@code at} into {@code out[k]}. */
  private void form(long[] a, long[] b, long[] c, int at, long[] out, int k) {
    field.innerProduct(coefficientA, 0, a, at, m, out, k);
    field.innerProduct(coefficientB, 0, b, at, m, one, 0);
    field.add(out, k, one, 0, out, k, 1);
    field.innerProduct(rhoSquares, 0, c, at, m, one, 0);
    field.add(out, k, one, 0, out, k, 1);
  }

  /**
   * This server's shares of the values of the submissions of {@code triples.length} clients (that
   * passed the check), in their order: one column per value of the shape.
   */
  Shares[] values(MaskRounds.Grant[] triples, long[][] words) {
    int count = triples.length;
    Shares[] out = new Shares[shape.columns()];
    for (int col = 0; col < out.length; col++) {
      int from = shape.offset(col);
      int bits = shape.bits(col);
      long[] share = field.alloc(count);
      long[] mac = field.alloc(count);
      long[] constants = field.alloc(count);
      for (int k = 0; k < count; k++) {
        Shares a = triples[k].block().a();
        int at = triples[k].offset() + from;
        field.innerProduct(powers, from, a.share, at, bits, share, k);
        field.innerProduct(powers, from, a.mac, at, bits, mac, k);
        field.innerProduct(powers, from, words[k], from, bits, constants, k);
        field.sub(constants, k, biases, col, constants, k, 1);
      }
      out[col] = suite.addConstants(new Shares(count, share, mac), constants);
    }
    return out;
  }
}
