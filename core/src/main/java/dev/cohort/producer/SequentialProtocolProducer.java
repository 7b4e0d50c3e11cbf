package dev.cohort.producer;

import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Step;
import dev.cohort.api.StepFunction;
import dev.cohort.gate.Buildable;
import dev.cohort.gate.Graph;
import java.util.function.Predicate;

/**
 * A loop: runs its body one iteration after another while a condition holds for the state, each
 * iteration built from the state the one before computed. Iterations are sibling scopes, so a loop
 * of any length uses constant stack depth and lets finished iterations be collected.
 *
 * <p>Made by {@link Numeric#loop}; each iteration's body is a {@link ParallelProtocolProducer} of
 * its own, and {@link #seq} on the loop makes the {@link LazyProtocolProducer} that follows it.
 */
final class SequentialProtocolProducer<T>
    implements Step<T>, Buildable, ParallelProtocolProducer.Owner {

  private final Graph graph;
  private final ParallelProtocolProducer declaring;
  private final Predicate<? super T> condition;
  private final StepFunction<T, T> body;
  private T state;
  private Deferred<T> inner;
  private boolean complete;
  private LazyProtocolProducer<T, ?> follower;

  SequentialProtocolProducer(
      Graph graph,
      ParallelProtocolProducer declaring,
      T initial,
      Predicate<? super T> condition,
      StepFunction<T, T> body) {
    this.graph = graph;
    this.declaring = declaring;
    this.state = initial;
    this.condition = condition;
    this.body = body;
  }

  void attach() {
    declaring.childStarted();
    build(graph);
  }

  @Override
  public int session() {
    return declaring.session();
  }

  @Override
  public void build(Graph unused) {
    if (!condition.test(state)) {
      complete = true;
      if (follower != null) {
        graph.schedule(follower);
        follower = null;
      }
      declaring.childFinished(graph);
      return;
    }
    ParallelProtocolProducer scope = new ParallelProtocolProducer(this, declaring.session());
    inner = body.build(new Builder(graph, scope), state);
    if (inner == null) {
      throw new IllegalStateException("a loop body returned null instead of a Deferred");
    }
    scope.seal(graph);
  }

  @Override
  public void scopeComplete(Graph unused) {
    state = Steps.valueOfStep(inner);
    inner = null;
    graph.schedule(this); // the next iteration, from the queue rather than by recursion
  }

  @Override
  public T get() {
    if (!complete) {
      throw new IllegalStateException(
          "loop has not finished yet: read its value in a later step (seq) or after the run");
    }
    return state;
  }

  @Override
  public <R> Step<R> seq(StepFunction<? super T, R> next) {
    LazyProtocolProducer<T, R> step =
        new LazyProtocolProducer<>(graph, declaring, null, (b, ignored) -> next.build(b, get()));
    declaring.childStarted();
    if (complete) {
      graph.schedule(step);
    } else {
      if (follower != null) {
        throw new IllegalStateException("a loop can be followed by one step only");
      }
      follower = step;
    }
    return step;
  }
}
