package dev.cohort.engine;

import java.util.List;

/**
 * The values of a sessions run at one party, in session order, with what the whole run cost.
 *
 * @param values the value of session {@code i} at index {@code i}
 * @param metrics the rounds, gates and traffic of all sessions together
 */
public record SessionsResult<T>(List<T> values, RunMetrics metrics) {}
