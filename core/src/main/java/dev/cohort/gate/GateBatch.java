package dev.cohort.gate;

import dev.cohort.suite.RoundProtocol;

/**
 * Ready gates of one kind, evaluated by one suite protocol over their concatenated operands. The
 * engine drives {@link #protocol()} round by round and calls {@link #finish()} when it is done.
 */
public final class GateBatch {

  private final Graph graph;
  private final InteractiveGate head; // the others follow through InteractiveGate.next
  private final int size;
  private final RoundProtocol protocol;
  private final int elements;
  private int round;

  GateBatch(Graph graph, InteractiveGate head, int size, RoundProtocol protocol, int elements) {
    this.graph = graph;
    this.head = head;
    this.size = size;
    this.protocol = protocol;
    this.elements = elements;
  }

  public RoundProtocol protocol() {
    return protocol;
  }

  /** Rounds this batch has completed. */
  public int round() {
    return round;
  }

  public void nextRound() {
    round++;
  }

  public int elements() {
    return elements;
  }

  /** Hands the results to the gates, which may make further gates ready. */
  public void finish() {
    graph.batchFinished(elements);
    head.finishGroup(protocol, size, graph);
  }
}
