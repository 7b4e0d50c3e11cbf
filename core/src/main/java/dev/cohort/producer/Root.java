package dev.cohort.producer;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.gate.Graph;
import dev.cohort.gate.SessionBuilder;

/**
 * The root of a run or of one session: owns the parallel producer that the computation is built in,
 * and is complete when every gate and step of the computation has finished. Its value is the
 * computation's result.
 *
 * <p>Made by {@code Engine.run} and {@code Engine.runSessions}, one per session, through {@link
 * #build}, the {@link SessionBuilder} that the engine hands the graph's session scheduler.
 */
public final class Root<T> implements ParallelProtocolProducer.Owner, Deferred<T> {

  private final Runnable onComplete;
  private Deferred<T> result;

  Root(Runnable onComplete) {
    this.onComplete = onComplete;
  }

  /**
   * Builds {@code computation} into {@code graph} as session {@code session} (-1 for none); {@code
   * onComplete} runs once it has completed, possibly at once, when the computation needs no gates.
   */
  public static <T> Deferred<T> build(
      Graph graph, Computation<T> computation, int session, Runnable onComplete) {
    Root<T> root = new Root<>(onComplete);
    ParallelProtocolProducer scope = new ParallelProtocolProducer(root, session);
    root.finish(graph, scope, computation.build(new Builder(graph, scope)));
    return root;
  }

  /** Takes the computation's {@code result}, built in {@code scope}, and ends the build. */
  void finish(Graph graph, ParallelProtocolProducer scope, Deferred<T> result) {
    if (result == null) {
      throw new IllegalStateException("the computation returned null instead of a Deferred");
    }
    this.result = result;
    scope.seal(graph);
  }

  @Override
  public void scopeComplete(Graph graph) {
    onComplete.run();
  }

  @Override
  public T get() {
    return Steps.valueOfStep(result);
  }
}
