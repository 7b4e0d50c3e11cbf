package dev.cohort.producer;

import dev.cohort.suite.RoundProtocol;
import java.util.List;

/**
 * Ready gates of one kind, evaluated by one suite protocol over their concatenated operands. The
 * engine drives {@link #protocol()} round by round and calls {@link #finish()} when it is done.
 */
public final class GateBatch {

  private final Graph graph;
  private final List<InteractiveGate> gates;
  private final RoundProtocol protocol;
  private final int elements;
  private int round;

  GateBatch(Graph graph, List<InteractiveGate> gates, RoundProtocol protocol, int elements) {
    this.graph = graph;
    this.gates = gates;
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
    gates.get(0).finishGroup(protocol, gates, graph);
  }
}
