package dev.cohort.lib;

import dev.cohort.api.Numeric;
import dev.cohort.api.SecretVector;

/** Oblivious selection: which value is taken stays secret. */
public final class Select {

  private Select() {}

  /** {@code choice ? x : y} elementwise for secret bits {@code choice}: y + choice·(x − y). */
  public static SecretVector mux(Numeric b, SecretVector choice, SecretVector x, SecretVector y) {
    return b.add(y, b.mul(choice, b.sub(x, y)));
  }
}
