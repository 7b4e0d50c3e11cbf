package dev.cohort.api;

/** Base of the unchecked exceptions that end a computation for a reason a user can act on. */
public class CohortException extends RuntimeException {

  public CohortException(String message) {
    super(message);
  }

  public CohortException(String message, Throwable cause) {
    super(message, cause);
  }
}
