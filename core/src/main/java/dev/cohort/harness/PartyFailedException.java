package dev.cohort.harness;

import dev.cohort.api.CohortException;
import dev.cohort.api.PartyId;
import java.util.ArrayList;
import java.util.List;

/**
 * A party of a local multi-party run failed; the message names it and its cause. The first party to
 * fail is the one named; the failures of the others are suppressed in it ({@link #failures}).
 */
public final class PartyFailedException extends CohortException {

  private final PartyId party;

  public PartyFailedException(PartyId party, Throwable cause) {
    super(party + " failed: " + cause.getMessage(), cause);
    this.party = party;
  }

  public PartyId party() {
    return party;
  }

  /**
   * This failure, then every other party's failure of the same run (suppressed in this one), in
   * party order.
   */
  public List<PartyFailedException> failures() {
    List<PartyFailedException> all = new ArrayList<>(List.of(this));
    for (Throwable suppressed : getSuppressed()) {
      if (suppressed instanceof PartyFailedException other) {
        all.add(other);
      }
    }
    return all;
  }
}
