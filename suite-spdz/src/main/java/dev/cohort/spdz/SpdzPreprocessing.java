package dev.cohort.spdz;

import dev.cohort.suite.Shares;

/**
 * One party's supply of SPDZ preprocessed material: its share of the MAC key α, and authenticated
 * sharings ⟨v⟩ = (v_i, m_i) with Σ v_i = v and Σ m_i = α·v. Every party draws material in the same
 * order (the engine evaluates the same gates in the same order everywhere), so the k-th item of a
 * kind is the same sharing at every party.
 *
 * <p>Running out of a kind is an {@link IllegalStateException} that names the kind and how much was
 * needed.
 */
public interface SpdzPreprocessing {

  /** This party's share α_i of the MAC key, as one packed element. */
  long[] macKeyShare();

  /** {@code count} Beaver triples (⟨a⟩, ⟨b⟩, ⟨c⟩) with c = a·b. */
  Triples triples(int count);

  /**
   * {@code count} input masks ⟨r⟩ of {@code owner}: shares at every party, and the values r at the
   * owner only.
   */
  InputMasks inputMasks(int owner, int count);

  /** {@code count} sharings of uniformly random elements that no party knows. */
  Shares randomElements(int count);

  /** {@code count} sharings of uniformly random bits that no party knows. */
  Shares randomBits(int count);

  /** Beaver triples as three columns of authenticated shares. */
  record Triples(Shares a, Shares b, Shares c) {}

  /**
   * Input masks: {@code shares} at every party; {@code values}, the packed mask values, at the
   * owner and null elsewhere.
   */
  record InputMasks(Shares shares, long[] values) {}
}
