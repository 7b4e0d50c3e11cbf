package dev.cohort.gate;

/**
 * A native gate: the smallest unit a suite evaluates. It belongs to the scope that built it and
 * becomes ready when all its inputs have shares. Local gates run as soon as they are ready;
 * interactive gates wait for the engine to batch them with other ready gates of their kind.
 *
 * <p>Each kind of gate holds its inputs in fields of its own (none for an input gate, one for an
 * open, two for a product or a sum), not in an array: with 1000 sessions in one batch the arrays
 * were one object in four that a run allocated.
 */
abstract class NativeGate extends Value {

  Scope scope; // null once the gate has completed
  private int missing;

  /**
   * A gate whose output, if it has one, is {@code length} secrets (an open's {@code length} is that
   * of its input).
   */
  NativeGate(Scope scope, int length) {
    super(length);
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
   * Called once the gate's outputs are set: tells the scope. The application may still hold the
   * gate as its output value, so a gate lets go of its inputs when it has read them ({@link
   * #release}): a long chain of additions keeps only the values the application holds.
   */
  final void completed(Graph graph) {
    Scope s = scope;
    scope = null; // the application may hold the gate: let the scope and its owner go
    s.childFinished(graph);
  }

  /** Drops the references to the gate's inputs, once they have been read. */
  abstract void release();
}
