package dev.cohort.gate;

import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.suite.Shares;
import java.util.ArrayList;

/**
 * A node of the dataflow graph that will hold shares of {@code length} secrets. Gates that consume
 * it wait on it; when its shares are set, each waiting gate counts down its missing inputs and
 * becomes ready at zero.
 *
 * <p>The output of a gate in a batch is a view: elements {@code [offset, offset + length)} of the
 * batch's shares, not a copy. Additions, subtractions and the gathering of the next batch read
 * views in place; any other use copies the value out once ({@link #shares()}). With 1000
 * distance-average sessions in one batch, the copies were a sixth of the run's allocation. A view
 * keeps its batch's arrays alive as long as the value is.
 *
 * <p>A gate with one secret output is that output ({@link NativeGate} is a value): an input or an
 * addition is one object, not a gate and a value, and a value's waiters are woken from the object
 * its gate just wrote. The application holds it as a {@link Secret} or a {@link SecretVector}.
 */
public abstract class Value implements Secret, SecretVector {

  final int length;
  Shares shares; // elements [offset, offset + length) are this value's
  int offset;
  private Object waiters; // null, one NativeGate, or an ArrayList<NativeGate>

  Value(int length) {
    this.length = length;
  }

  @Override
  public int length() {
    return length;
  }

  /** True once the value has shares. */
  public boolean isReady() {
    return shares != null;
  }

  /** The value's shares on their own: a view is copied out of its batch once. */
  Shares shares() {
    if (shares == null) {
      throw new IllegalStateException("secret not computed yet");
    }
    if (offset != 0 || shares.length != length) {
      shares = shares.slice(offset, length, shares.share.length / shares.length);
      offset = 0;
    }
    return shares;
  }

  /** The shares that hold this value from element {@link #offset} on (a view's whole batch). */
  Shares backing() {
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

  void set(Shares value, Graph graph) {
    if (value.length != length) {
      throw new IllegalStateException(
          "gate produced " + value.length + " elements where " + length + " were expected");
    }
    setView(value, 0, graph);
  }

  /** Sets the value to elements {@code [from, from + length)} of {@code all}, without a copy. */
  @SuppressWarnings("unchecked")
  void setView(Shares all, int from, Graph graph) {
    if (from < 0 || from + length > all.length) {
      throw new IllegalStateException(
          "gate produced "
              + all.length
              + " elements, too few for elements ["
              + from
              + ", "
              + (from + length)
              + ")");
    }
    shares = all;
    offset = from;
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
