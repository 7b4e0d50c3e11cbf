package dev.cohort.producer;

import dev.cohort.api.Computation;
import dev.cohort.api.Numeric;
import dev.cohort.gate.Graph;
import dev.cohort.gate.Scope;

/**
 * A scope whose children — gates, steps, nested scopes — all run side by side: each child starts as
 * soon as its inputs exist, so independent children share rounds. The scope is complete when it has
 * been built and every child has finished; it then tells its owner (a step, a loop, a branch or the
 * engine's run).
 *
 * <p>Made by {@link Numeric#par(Computation)} (one per branch; {@link Numeric#par(java.util.List)}
 * makes one per element) and by {@link Numeric#seq(Computation)}: the body of the step is built in
 * a parallel producer of its own. So are each iteration of {@link Numeric#loop} and the computation
 * of a run or session. Calls on one builder are children of one parallel producer, which is why
 * independent scalar calls share rounds.
 *
 * <p>Completion is counted, not tracked in lists, so finished gates and their shares can be
 * collected while the scope is still running.
 */
public final class ParallelProtocolProducer implements Scope {

  /** Told once when a scope completes. */
  interface Owner {
    void scopeComplete(Graph graph);
  }

  private final Owner owner;
  private final int session; // the index of its session in a sessions run; -1 otherwise
  private int pending = 1; // children not finished, plus the build token held until seal(): 0 once

  // complete, as it can reach 0 only after seal()

  ParallelProtocolProducer(Owner owner, int session) {
    this.owner = owner;
    this.session = session;
  }

  public boolean isComplete() {
    return pending == 0;
  }

  @Override
  public int session() {
    return session;
  }

  @Override
  public void childStarted() {
    if (pending == 0) {
      throw new IllegalStateException(
          "a gate or step was added to a scope that has finished: keep the builder of a step"
              + " inside that step");
    }
    pending++;
  }

  @Override
  public void childFinished(Graph graph) {
    if (--pending == 0) {
      owner.scopeComplete(graph);
    }
  }

  /** Ends the build: from now on the scope completes when its last child does. */
  void seal(Graph graph) {
    childFinished(graph);
  }
}
