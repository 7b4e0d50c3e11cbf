package dev.cohort.gate;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs many independent computations (sessions) in one graph, at most {@code parallelism} of them
 * in flight: the parallel producer over sessions. The gates of the sessions in flight that are
 * ready in the same round share that round, so k sessions of r rounds each take about r rounds, not
 * k·r. When a session completes, the next one is built at once, and its first gates join the very
 * next round.
 *
 * <p>Every party starts the sessions in the same order, so the parties' graphs stay alike.
 */
public final class SessionScheduler<T> implements Buildable {

  private final Graph graph;
  private final List<? extends Computation<T>> sessions;
  private final int parallelism;
  private final SessionBuilder builder;
  private final List<Deferred<T>> results; // of started sessions, read after the final checks
  private final Runnable onFinished = this::finished; // one for all sessions
  private int started;
  private int finished;
  private boolean scheduled;

  /**
   * Schedules the first sessions; {@code builder} builds them when the engine next drains the
   * graph.
   */
  public SessionScheduler(
      Graph graph,
      List<? extends Computation<T>> sessions,
      int parallelism,
      SessionBuilder builder) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism (" + parallelism + ") must be >= 1");
    }
    this.graph = graph;
    this.sessions = sessions;
    this.parallelism = parallelism;
    this.builder = builder;
    this.results = new ArrayList<>(sessions.size());
    for (int i = 0; i < sessions.size(); i++) {
      results.add(null);
    }
    scheduleStarts();
  }

  private void scheduleStarts() {
    if (!scheduled && started < sessions.size()) {
      scheduled = true;
      graph.schedule(this);
    }
  }

  @Override
  public int session() {
    return -1;
  }

  /** Starts sessions until {@code parallelism} are in flight or none is left. */
  @Override
  public void build(Graph unused) {
    scheduled = false;
    while (started < sessions.size() && started - finished < parallelism) {
      // all the sessions that may start now, built together where the builder can
      int to = Math.min(sessions.size(), finished + parallelism);
      started += builder.buildBatch(graph, sessions, started, to, onFinished, results);
    }
  }

  private void finished() {
    // The value is read only in values(), after the suite's final checks: an opened value must
    // not be decoded, let alone returned, before a MAC check has vouched for it.
    finished++;
    scheduleStarts();
  }

  /** True when every session has completed. */
  public boolean isComplete() {
    return finished == sessions.size();
  }

  /** Sessions started and not yet complete. */
  public int inFlight() {
    return started - finished;
  }

  /**
   * The sessions' values, in session order. Call only once every session is complete and the
   * suite's final checks have passed: this is where opened values are first decoded.
   */
  public List<T> values() {
    List<T> values = new ArrayList<>(results.size());
    int previous = graph.currentSession();
    for (int i = 0; i < results.size(); i++) {
      graph.setCurrentSession(i); // a failure reading the value names this session
      values.add(results.get(i).get());
    }
    graph.setCurrentSession(previous);
    return values;
  }
}
