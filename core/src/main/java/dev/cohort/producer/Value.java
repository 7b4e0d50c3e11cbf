package dev.cohort.producer;

import dev.cohort.suite.Shares;
import java.util.ArrayList;

/**
 * A node of the dataflow graph that will hold shares of {@code length} secrets. Gates that consume
 * it wait on it; when its shares are set, each waiting gate counts down its missing inputs and
 * becomes ready at zero.
 */
public abstract class Value {

  final int length;
  Shares shares;
  private Object waiters; // null, one NativeGate, or an ArrayList<NativeGate>

  Value(int length) {
    this.length = length;
  }

  boolean isReady() {
    return shares != null;
  }

  Shares shares() {
    if (shares == null) {
      throw new IllegalStateException("secret not computed yet");
    }
    return shares;
  }

  @SuppressWarnings("unchecked")
  void addWaiter(NativeGate gate) {
    if (waiters == null) {
      waiters = gate;
    } else if (waiters instanceof ArrayList) {
      ((ArrayList<NativeGate>) waiters).add(gate);
    } else {
      ArrayList<NativeGate> list = new ArrayList<>(4);
      list.add((NativeGate) waiters);
      list.add(gate);
      waiters = list;
    }
  }

  @SuppressWarnings("unchecked")
  void set(Shares value, Graph graph) {
    if (value.length != length) {
      throw new IllegalStateException(
          "gate produced " + value.length + " elements where " + length + " were expected");
    }
    shares = value;
    Object w = waiters;
    waiters = null;
    if (w == null) {
      return;
    }
    if (w instanceof ArrayList) {
      for (NativeGate gate : (ArrayList<NativeGate>) w) {
        gate.inputReady(graph);
      }
    } else {
      ((NativeGate) w).inputReady(graph);
    }
  }
}
