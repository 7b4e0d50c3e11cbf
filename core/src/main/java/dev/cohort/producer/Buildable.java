package dev.cohort.producer;

/** A producer whose gates are built later, when the graph gets to it. */
interface Buildable {
  void build(Graph graph);

  /** The session whose code {@link #build} runs, or -1 (see {@link Graph#currentSession()}). */
  int session();
}
