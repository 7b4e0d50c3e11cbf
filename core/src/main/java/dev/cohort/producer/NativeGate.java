package dev.cohort.producer;

/**
 * A native gate: the smallest unit a suite evaluates. It belongs to the scope that built it and
 * becomes ready when all its inputs have shares. Local gates run as soon as they are ready;
 * interactive gates wait for the engine to batch them with other ready gates of their kind.
 *
 * <p>Each kind of gate holds its inputs in fields of its own (none for an input gate, one for an
 * open, two for a product or a sum), not in an array: with 1000 sessions in one batch the arrays
 * were one object in four that a run allocated.
 */
abstract class NativeGate {

  final ParallelProtocolProducer scope;
  private int missing;

  NativeGate(ParallelProtocolProducer scope) {
    this.scope = scope;
  }

  /** Registers the gate with its scope and its inputs; schedules it if they are all ready. */
  final void attach(Graph graph) {
    scope.childStarted();
    awaitInputs();
    if (missing == 0) {
      graph.ready(this);
    }
  }

  /** Calls {@link #await} for each input. */
  abstract void awaitInputs();

  /** Counts {@code input} as missing, and waits for it, when it has no shares yet. */
  final void await(Value input) {
    if (!input.isReady()) {
      missing++;
      input.addWaiter(this);
    }
  }

  final void inputReady(Graph graph) {
    if (--missing == 0) {
      graph.ready(this);
    }
  }

  /**
   * Called once the gate's outputs are set: tells the scope. Nothing holds a finished gate (its
   * batch or the ready queue let go of it), so its inputs are collected with it.
   */
  final void completed(Graph graph) {
    scope.childFinished(graph);
  }
}
