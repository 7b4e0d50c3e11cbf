package dev.cohort.gate;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;

/**
 * How a session's computation becomes gates: the entry point of the producers that sit above the
 * graph. The engine hands one to the {@link SessionScheduler}; the graph never names the producers.
 */
@FunctionalInterface
public interface SessionBuilder {

  /**
   * Builds {@code computation} into {@code graph} as session {@code session} (-1 for none); {@code
   * onComplete} runs once every gate and step of it has finished, possibly at once. The result may
   * be read only once the session is complete.
   */
  <T> Deferred<T> build(Graph graph, Computation<T> computation, int session, Runnable onComplete);
}
