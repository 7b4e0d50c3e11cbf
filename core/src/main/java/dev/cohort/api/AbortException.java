package dev.cohort.api;

/**
 * The computation was aborted because a check failed or a peer misbehaved: an inconsistent sharing,
 * a failed MAC check, a malformed message. The message names the check, the round and the suspect
 * party where known. It never contains shares, keys, inputs or outputs.
 */
public class AbortException extends CohortException {

  public AbortException(String message) {
    super(message);
  }
}
