package dev.cohort.producer;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.field.Field;
import dev.cohort.gate.Graph;
import dev.cohort.gate.SessionBuilder;
import dev.cohort.gate.Value;
import java.util.Arrays;
import java.util.List;

/**
 * The {@link SessionBuilder} of a sessions run: builds sessions one at a time ({@link Root#build}),
 * or, when several are started together, as <em>lanes</em> of one vectorised computation.
 *
 * <p>Sessions of a batch usually have one shape: the same calls in the same order, only the input
 * values and constants differing (1000 distance-average sessions). Building each into gates of its
 * own costs hundreds of nanoseconds per session and party in gate objects and their scheduling, far
 * more than the arithmetic. So the sessions of a batch are first run against a {@link LaneBuilder}
 * that records their calls into a trace, one entry per call of the first session, and checks that
 * every later session makes the same calls with the same secret operands; each entry keeps one
 * column of the sessions' values (their inputs and constants). The trace is then built once, with
 * every entry a vector over the sessions: one input gate of 1000 elements instead of 1000 of one.
 * The rounds are those of one session, as before.
 *
 * <p>The trace takes single secrets only: inputs and constants given as {@code long}, additions
 * (and sums of lists, as chains of additions), subtractions, negations, multiplications (by secrets
 * and by {@code long} constants), random elements and bits, openings. A session that makes any
 * other call, or a call that differs from the trace, is built on its own at that point: its calls
 * so far are replayed into gates of its own, its handles are bound to them, and its remaining calls
 * go straight to a builder of its own. The sessions before it form the batch; the sessions after it
 * start a new one. Every computation is therefore called exactly once, and every party takes the
 * same decisions, since they depend only on the calls, which are the same at every party.
 *
 * <p>A batch's first session that the trace cannot take, or {@value #GIVE_UP} batches in a row of
 * at most one session (shapes that change from session to session), end the batching for the rest
 * of the run: every party sees the same calls, so every party stops at the same session.
 *
 * <p>What differs from building each session alone: a failure while the batch's local gates run
 * names the batch's first session (a failure in a session's own code still names that session); and
 * the run's gate counts count vectors, not sessions.
 */
public final class Lanes implements SessionBuilder {

  /** Batches in a row of at most one session after which sessions are built one by one. */
  static final int GIVE_UP = 3;

  private boolean uniform = true; // false once batching stopped paying
  private int thin; // batches in a row that held at most one session

  @Override
  public <T> Deferred<T> build(
      Graph graph, Computation<T> computation, int session, Runnable onComplete) {
    return Root.build(graph, computation, session, onComplete);
  }

  @Override
  public <T> int buildBatch(
      Graph graph,
      List<? extends Computation<T>> sessions,
      int from,
      int to,
      Runnable onComplete,
      List<Deferred<T>> results) {
    if (!uniform || to - from < 2) {
      graph.setCurrentSession(from);
      results.set(from, Root.build(graph, sessions.get(from), from, onComplete));
      return 1;
    }
    LaneBuilder lanes = new LaneBuilder(graph, from, to - from, onComplete);
    for (int s = from; s < to; s++) {
      graph.setCurrentSession(s);
      lanes.startLane(s);
      Deferred<T> result = sessions.get(s).build(lanes);
      if (result == null) {
        throw new IllegalStateException("the computation returned null instead of a Deferred");
      }
      Deferred<T> alone = uncheckedCast(lanes.endLane(result));
      if (alone != null) { // session s left the trace: it was built on its own
        results.set(s, alone);
        int batch = s - from;
        if (batch == 0) {
          uniform = false; // its first session did not fit: later batches would not either
        } else {
          lanes.buildBatch(batch);
          setResults(lanes, from, batch, results);
        }
        // shapes that change from session to session: tracing only costs, build them singly
        thin = batch <= 1 ? thin + 1 : 0;
        uniform &= thin < GIVE_UP;
        return s - from + 1;
      }
    }
    thin = 0;
    lanes.buildBatch(to - from);
    setResults(lanes, from, to - from, results);
    return to - from;
  }

  @SuppressWarnings("unchecked")
  private static <T> Deferred<T> uncheckedCast(Deferred<?> d) {
    return (Deferred<T>) d;
  }

  @SuppressWarnings("unchecked")
  private static <T> void setResults(LaneBuilder lanes, int from, int n, List<Deferred<T>> out) {
    for (int i = 0; i < n; i++) {
      Deferred<T> r = (Deferred<T>) lanes.result(i);
      out.set(from + i, () -> Steps.valueOfStep(r));
    }
  }

  /**
   * A secret of one session of a batch: entry {@code entry} of the trace, in lane {@code lane}.
   * Once its session is built on its own, {@code real} is its value there.
   */
  static final class LaneSecret implements Secret {
    final LaneBuilder owner;
    final int entry;
    final int lane;
    Value real;

    LaneSecret(LaneBuilder owner, int entry, int lane) {
      this.owner = owner;
      this.entry = entry;
      this.lane = lane;
    }
  }

  /**
   * The value behind a secret handle for a builder: {@code s} itself when it is the graph's, the
   * value a session built on its own bound to its lane handle.
   */
  static Value valueOf(Object s) {
    if (s instanceof LaneSecret lane) {
      if (lane.real == null) {
        throw new IllegalArgumentException(
            "a secret of one session was used outside it (sessions of a run are independent)");
      }
      return lane.real;
    }
    return (Value) s;
  }

  /**
   * A step's value as the graph knows it: the value a session built alone bound to its lane handle,
   * else {@code value} itself.
   */
  @SuppressWarnings("unchecked")
  static <T> T unwrap(T value) {
    return value instanceof LaneSecret ? (T) valueOf(value) : value;
  }

  /** A column of public values per trace entry: one per lane. */
  static long[] column(long[][] data, int entry, int lanes) {
    long[] c = data[entry];
    return c.length == lanes ? c : Arrays.copyOf(c, lanes);
  }

  /** The field of a graph, for the builders' encodings. */
  static Field field(Graph graph) {
    return graph.suite().field();
  }
}
