package dev.cohort.suite;

import dev.cohort.api.ClientInputs;

/**
 * {@link ClientInputs} as this party's shares, in the representation of the suite that runs the
 * computation (MAC shares included for suites that authenticate values). The shares were made
 * outside the engine (a client dealt them, or a mask and a public difference were combined), and
 * whoever made them vouches that they are consistent sharings of in-range values.
 */
public interface ImportedColumns extends ClientInputs {

  /** This party's shares of column {@code column}: one element per contributor. */
  Shares column(int column);
}
