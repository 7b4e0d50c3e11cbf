package dev.cohort.producer;

/**
 * A native gate: the smallest unit a suite evaluates. It belongs to the scope that built it and
 * becomes ready when all its inputs have shares. Local gates run as soon as they are ready;
 * interactive gates wait for the engine to batch them with other ready gates of their kind.
 */
abstract class NativeGate {

  final ParallelProtocolProducer scope;
  Value[] inputs;
  private int missing;

  NativeGate(ParallelProtocolProducer scope, Value... inputs) {
    this.scope = scope;
    this.inputs = inputs;
  }

  /** Registers the gate with its scope and its inputs; schedules it if they are all ready. */
  final void attach(Graph graph) {
    scope.childStarted();
    for (Value v : inputs) {
      if (!v.isReady()) {
        missing++;
        v.addWaiter(this);
      }
    }
    if (missing == 0) {
      graph.ready(this);
    }
  }

  final void inputReady(Graph graph) {
    if (--missing == 0) {
      graph.ready(this);
    }
  }

  /** Called once the gate's outputs are set: releases inputs and tells the scope. */
  final void completed(Graph graph) {
    inputs = null;
    scope.childFinished(graph);
  }
}
