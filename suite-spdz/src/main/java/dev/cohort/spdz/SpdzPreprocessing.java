package dev.cohort.spdz;

import dev.cohort.suite.Shares;

/**
 * One party's supply of SPDZ preprocessed material: its share of the MAC key α, and authenticated
 * sharings ⟨v⟩ = (v_i, m_i) with Σ v_i = v and Σ m_i = α·v. Every party draws material in the same
 * order (the engine evaluates the same gates in the same order everywhere), so the k-th item of a
 * kind is the same sharing at every party.
 *
 * <p>The suites of one engine's groups of sessions ({@code EngineConfig.withGroups}) share one
 * source, which {@link SlicedPreprocessing} calls from the groups' threads one call at a time
 * (under its lock) in whole chunks, handing each group its own chunks: the k-th item a group draws
 * is then the same sharing at every party, and no item reaches two groups. The MAC-check calls
 * below may then come from several groups' checks at once; the slicer counts them, so a source sees
 * a mark cleared only when none is in flight.
 *
 * <p>Running out of a kind is an {@link IllegalStateException} that names the kind and how much was
 * needed.
 *
 * <p>A failed MAC check burns the MAC key: every honest σ_i is opened before Σ σ_i is checked, and
 * a cheater who added errors δ_j solves Σ σ_i = −α·Σ r_j δ_j for α, after which it can forge any
 * MAC made with that key [DPSZ12]. So the suite calls {@link #beforeMacReveal()} before it sends
 * σ_i and {@link #macCheckPassed()} when the check has passed; a source that can hand out material
 * with the same α again (a file read by a later run, a dealer asked again) must refuse it once a
 * check's σ_i was revealed and the check never passed.
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

  /**
   * {@code count} input bits of {@code owner}: authenticated uniformly random bits ⟨r⟩, r ∈ {0, 1},
   * whose values only the owner knows; shares at every party, and the values r (0 or 1, packed) at
   * the owner only. What a k-bit input is made of ({@link SpdzRangeInput}).
   */
  InputMasks inputBits(int owner, int count);

  /** {@code count} sharings of uniformly random elements that no party knows. */
  Shares randomElements(int count);

  /** {@code count} sharings of uniformly random bits that no party knows. */
  Shares randomBits(int count);

  /**
   * Called before this party reveals its σ_i in a MAC check. A source that can hand out material
   * with the same α again records, durably before this returns, that a check is in flight, and
   * refuses that material while the mark stands; it throws if it cannot record it (σ_i is then not
   * sent). A no-op for a source used only once.
   */
  default void beforeMacReveal() {}

  /** Called when the MAC check after {@link #beforeMacReveal()} has passed: clears its mark. */
  default void macCheckPassed() {}

  /**
   * Called when the MAC check after {@link #beforeMacReveal()} has failed: the mark stays, now
   * saying that the check failed (not merely that it was interrupted), so that a refusal can say
   * which.
   */
  default void macCheckFailed() {}

  /**
   * How long, in all, callers have waited for material this source had not made yet: zero for
   * material made ahead (a dealer, files); an offline phase running in the background counts the
   * online phase's waits here.
   */
  default long waitNanos() {
    return 0;
  }

  /**
   * Where this party's draws stand, for the parties to agree on when a run starts ({@link
   * PositionAgreement}), or null for a source that starts afresh every run (an in-process dealer).
   * A source that persists across runs (files) may stand ahead of its peers after a crash, as each
   * party records a draw before it uses it.
   */
  default Positions positions() {
    return null;
  }

  /**
   * Moves every kind forward to {@code used} (same order as {@link Positions#used()}; never back),
   * recording it durably before this returns: the material in between is skipped, never used.
   * Throws {@link MaterialException} when a kind has fewer items than that.
   */
  default void skipTo(long[] used) {
    throw new UnsupportedOperationException("this source has no positions");
  }

  /**
   * A source's positions: the id of its dealing (two words: every party's material of one dealing
   * carries the same) and how many items of each kind were drawn, in the order triples, random
   * elements, random bits, the input masks of each owner, the input bits of each owner.
   */
  record Positions(long[] dealing, long[] used) {}

  /** Beaver triples as three columns of authenticated shares. */
  record Triples(Shares a, Shares b, Shares c) {}

  /**
   * Input masks: {@code shares} at every party; {@code values}, the packed mask values, at the
   * owner and null elsewhere.
   */
  record InputMasks(Shares shares, long[] values) {}
}
