package dev.cohort.clients;

import dev.cohort.field.Field;
import dev.cohort.random.Prg;

/**
 * A BGW submission, both ends. The client shares each value as its bits, plus two elements that let
 * the servers check the sharing without learning it: a blinding value {@code u} (degree t) and a
 * sharing of zero {@code z} (degree 2t). Server {@code i} receives its share of every bit, then of
 * {@code u}, then of {@code z}: {@code elements + 2} field elements.
 *
 * <p>The servers' check, once the session's submissions are fixed and coefficients {@code ρ, ρ'}
 * are drawn: each server publishes {@code y = Σ ρ_j s_j + u} and {@code w = Σ ρ'_j (s_j² − s_j) +
 * z}. The n values {@code y} must lie on one degree-t polynomial (so every bit sharing does, but
 * for probability {@code 1/p}), and the interpolation of the n values {@code w} at 0, which is
 * {@code Σ ρ'_j b_j(b_j − 1) + z(0)}, must be 0 (so every bit is 0 or 1, but for probability {@code
 * 1/p}, whatever {@code z} the client chose). For an honest client {@code y} is a uniformly random
 * degree-t polynomial and {@code w} a uniformly random degree-2t polynomial with {@code w(0) = 0}:
 * the servers learn nothing else.
 */
final class BgwSubmissions {

  private BgwSubmissions() {}

  /** Elements per server of a submission of {@code shape}. */
  static int elements(Shape shape) {
    return shape.elements() + 2;
  }

  /** The client's dealing: one array per server, {@link #elements} field elements each. */
  static long[][] deal(Shamir shamir, Shape shape, long[] values, Prg prg) {
    shape.check(values);
    Field f = shamir.field;
    int m = shape.elements();
    long[] secrets = f.alloc(m + 1);
    for (int c = 0; c < shape.columns(); c++) {
      int b = shape.bits(c);
      long biased = values[c] + (1L << (b - 1)); // in [0, 2^b)
      for (int j = 0; j < b; j++) {
        f.encode((biased >>> j) & 1L, secrets, shape.offset(c) + j);
      }
    }
    f.random(prg, secrets, m, 1); // u
    long[][] out = new long[shamir.parties][];
    for (int i = 0; i < out.length; i++) {
      out[i] = f.alloc(m + 2);
    }
    shamir.deal(secrets, 0, m + 1, shamir.threshold, prg, out, 0);
    shamir.deal(null, 0, 1, 2 * shamir.threshold, prg, out, m + 1);
    return out;
  }
}
