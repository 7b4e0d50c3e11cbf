package dev.cohort.gate;

/**
 * What a gate belongs to: the scope that recorded it, told when the gate starts and when it
 * finishes, so that it knows when all of its children are done. Invariant: {@link #childFinished}
 * is called once for each {@link #childStarted}.
 *
 * <p>The graph sees scopes only through this interface; the scopes themselves ({@code
 * dev.cohort.producer.ParallelProtocolProducer}) live above the graph and use it, never the other
 * way round.
 */
public interface Scope {

  /** Counts one more child (a gate, a step, a loop) that has not finished. */
  void childStarted();

  /** A child has finished; the scope may complete now. */
  void childFinished(Graph graph);

  /**
   * The index of the session the scope belongs to in a sessions run, or -1 (see {@link
   * Graph#currentSession()}).
   */
  int session();
}
