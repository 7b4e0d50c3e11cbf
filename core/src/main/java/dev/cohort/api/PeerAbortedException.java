package dev.cohort.api;

/**
 * A peer told this party that it gave up (its abort frame arrived): it caught a cheat, failed a
 * check, or failed for a reason of its own. The message names the peer and the round and carries
 * the peer's reason as it sent it, e.g. {@code P0 aborted in round 7: MASCOT MAC check failed ...}.
 * The reason comes from the peer: a corrupt peer can send any text, so it is a report, not proof.
 *
 * <p>A {@link NetworkException}, so code that treats every failed exchange alike keeps working;
 * code that wants to tell "a peer aborted" from "a peer vanished" catches this first.
 */
public class PeerAbortedException extends NetworkException {

  public PeerAbortedException(String message) {
    super(message);
  }
}
