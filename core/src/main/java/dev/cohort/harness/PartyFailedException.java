package dev.cohort.harness;

import dev.cohort.api.CohortException;
import dev.cohort.api.PartyId;

/** A party of a local multi-party run failed; the message names it and its cause. */
public final class PartyFailedException extends CohortException {

  private final PartyId party;

  public PartyFailedException(PartyId party, Throwable cause) {
    super(party + " failed: " + cause.getMessage(), cause);
    this.party = party;
  }

  public PartyId party() {
    return party;
  }
}
