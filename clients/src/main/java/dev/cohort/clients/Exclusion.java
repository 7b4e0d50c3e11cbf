package dev.cohort.clients;

/** Why a session left out a submission that a server had received. */
public enum Exclusion {
  /** Some server did not receive it before its deadline (a dropout, or a late submission). */
  NOT_AT_EVERY_SERVER("not_at_every_server"),
  /** The shares do not lie on one degree-t polynomial (BGW). */
  INCONSISTENT_SHARES("inconsistent_shares"),
  /** A bit of some value is neither 0 nor 1: the value is outside its declared range. */
  OUT_OF_RANGE("out_of_range"),
  /** The client sent different masked values to different servers (SPDZ). */
  DIFFERENT_AT_SERVERS("different_at_servers");

  /** The label in metrics. */
  public final String label;

  Exclusion(String label) {
    this.label = label;
  }
}
