package dev.cohort.gate;

/**
 * Work the graph runs when it drains, not at once: a step built from the value before it, the next
 * iteration of a loop, the next sessions of a run. Queuing it keeps the stack flat however long a
 * chain of steps is.
 */
public interface Buildable {

  /** Builds the producer's gates into {@code graph}. */
  void build(Graph graph);

  /** The session whose code {@link #build} runs, or -1 (see {@link Graph#currentSession()}). */
  int session();
}
