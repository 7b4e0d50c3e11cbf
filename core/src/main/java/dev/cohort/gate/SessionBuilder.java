package dev.cohort.gate;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import java.util.List;

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

  /**
   * Builds sessions from {@code from} on, up to {@code to} (exclusive), all started now, and sets
   * their results in {@code results} at their indices; {@code onComplete} runs once per session as
   * it completes. Returns how many it built (at least one): a builder may build a batch of sessions
   * together and stop where the next one does not fit it. Names the session whose code runs through
   * {@link Graph#setCurrentSession}. By default, one session, as {@link #build} does.
   */
  default <T> int buildBatch(
      Graph graph,
      List<? extends Computation<T>> sessions,
      int from,
      int to,
      Runnable onComplete,
      List<Deferred<T>> results) {
    graph.setCurrentSession(from);
    results.set(from, build(graph, sessions.get(from), from, onComplete));
    return 1;
  }
}
