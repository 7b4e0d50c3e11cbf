package dev.cohort.clients;

import dev.cohort.api.ClientInputs;
import dev.cohort.api.Computation;

/**
 * What the servers compute in a session from its client inputs: any computation, built per session
 * from this server's {@link ClientInputs} (read with {@code Numeric.clientInputs}).
 *
 * @param <T> the computation's result
 */
@FunctionalInterface
public interface SessionComputation<T> {

  /**
   * The computation of one session. {@code inputs} are the session's validated submissions; {@code
   * totals} has one contributor: the running sum of every column over all sessions so far, this one
   * included.
   */
  Computation<T> of(ClientInputs inputs, ClientInputs totals);
}
