package dev.cohort.producer;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Step;
import dev.cohort.api.StepFunction;
import dev.cohort.gate.Buildable;
import dev.cohort.gate.Graph;
import dev.cohort.gate.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * A step: its gates are built only when the step before it has finished, from that step's value.
 * Chained steps form a sequential producer; a step without a predecessor is built at once.
 *
 * <p>Made by {@link Numeric#seq(Computation)} and {@link Numeric#par(Computation)} (a step without
 * a predecessor, whose body is a {@link ParallelProtocolProducer}), by {@link Step#seq} (the step
 * after this one), and by {@link Numeric#secretOf} and {@link Numeric#vectorOf} when they are given
 * a step of another kind, such as a loop.
 */
final class LazyProtocolProducer<P, T>
    implements Step<T>, Buildable, ParallelProtocolProducer.Owner {

  private final Graph graph;
  private final ParallelProtocolProducer declaring;
  private final StepFunction<? super P, T> function;
  private final LazyProtocolProducer<?, P> predecessor;
  private List<LazyProtocolProducer<T, ?>> successors;
  private List<Value> forwards; // placeholders that take the shares of this step's secret
  private Deferred<T> inner;
  private T value;
  private boolean complete;

  LazyProtocolProducer(
      Graph graph,
      ParallelProtocolProducer declaring,
      LazyProtocolProducer<?, P> predecessor,
      StepFunction<? super P, T> function) {
    this.graph = graph;
    this.declaring = declaring;
    this.predecessor = predecessor;
    this.function = function;
  }

  /** Registers the step; builds it now when nothing precedes it. */
  void attach() {
    declaring.childStarted();
    if (predecessor == null) {
      build(graph);
    } else if (predecessor.complete) {
      graph.schedule(this);
    } else {
      predecessor.addSuccessor(this);
    }
  }

  private void addSuccessor(LazyProtocolProducer<T, ?> next) {
    if (successors == null) {
      successors = new ArrayList<>(2);
    }
    successors.add(next);
  }

  @Override
  public int session() {
    return declaring.session();
  }

  @Override
  public void build(Graph unused) {
    ParallelProtocolProducer scope = new ParallelProtocolProducer(this, declaring.session());
    P previous = predecessor == null ? null : predecessor.value;
    inner = function.build(new Builder(graph, scope), previous);
    if (inner == null) {
      throw new IllegalStateException("a step returned null instead of a Deferred");
    }
    scope.seal(graph);
  }

  @Override
  public void scopeComplete(Graph graph) {
    if (inner != null) {
      value = Lanes.unwrap(Steps.valueOfStep(inner));
      inner = null;
      if (value instanceof Value secret && !secret.isReady()) {
        awaitValue(secret, graph);
        return;
      }
    }
    complete = true;
    if (forwards != null) {
      Value computed = Steps.valueOf(value);
      for (Value placeholder : forwards) {
        graph.gates().fill(placeholder, computed);
      }
      forwards = null;
    }
    if (successors != null) {
      for (LazyProtocolProducer<T, ?> next : successors) {
        graph.schedule(next);
      }
      successors = null;
    }
    declaring.childFinished(graph);
  }

  /**
   * The step returned a secret that its own gates do not compute (an outer input, say): the step
   * finishes when that secret has shares, as a copy of it in a scope of its own, so that later
   * steps and placeholders always find the step's value computed.
   */
  @SuppressWarnings("unchecked")
  private void awaitValue(Value secret, Graph graph) {
    ParallelProtocolProducer wait = new ParallelProtocolProducer(this, declaring.session());
    Value copy = graph.gates().slice(wait, secret.length(), secret, 0);
    value = (T) copy; // the same secret: a Value is both a Secret and a SecretVector
    wait.seal(graph); // calls scopeComplete again once the copy has run
  }

  /** {@code placeholder} takes the shares of this step's secret value when the step finishes. */
  void forwardTo(Value placeholder) {
    if (forwards == null) {
      forwards = new ArrayList<>(1);
    }
    forwards.add(placeholder);
  }

  boolean isComplete() {
    return complete;
  }

  @Override
  public T get() {
    if (!complete) {
      throw new IllegalStateException(
          "step has not finished yet: read its value in a later step (seq) or after the run");
    }
    return value;
  }

  @Override
  public <R> Step<R> seq(StepFunction<? super T, R> next) {
    LazyProtocolProducer<T, R> step = new LazyProtocolProducer<>(graph, declaring, this, next);
    step.attach();
    return step;
  }
}
