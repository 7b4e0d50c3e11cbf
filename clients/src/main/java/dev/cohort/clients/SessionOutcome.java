package dev.cohort.clients;

import dev.cohort.engine.RunMetrics;
import java.util.Map;

/**
 * What one session of an input server produced.
 *
 * @param session the session's number (1, 2, ... across restarts)
 * @param value the computation's result at this server
 * @param contributors the submissions the session took
 * @param totalContributors the submissions all sessions so far took
 * @param received the submissions this server had when the session closed
 * @param excluded the submissions this server received that the session left out, by reason
 * @param closeNanos from the session's opening to its close (deadline or count reached)
 * @param validateNanos the servers' agreement on the submissions and their check
 * @param metrics the engine run of the computation
 * @param <T> the computation's result
 */
public record SessionOutcome<T>(
    long session,
    T value,
    int contributors,
    long totalContributors,
    int received,
    Map<Exclusion, Integer> excluded,
    long closeNanos,
    long validateNanos,
    RunMetrics metrics) {

  /** The submissions excluded for {@code reason}. */
  public int excluded(Exclusion reason) {
    return excluded.getOrDefault(reason, 0);
  }
}
