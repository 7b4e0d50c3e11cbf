package dev.cohort.engine;

import dev.cohort.api.CohortException;

/** One session of a sessions run failed, which failed the run; the message names the session. */
public final class SessionFailedException extends CohortException {

  private final int session;

  public SessionFailedException(int session, Throwable cause) {
    super("session " + session + " failed: " + cause.getMessage(), cause);
    this.session = session;
  }

  /** The index of the failed session in the list the run was given. */
  public int session() {
    return session;
  }
}
