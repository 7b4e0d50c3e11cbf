package dev.cohort.engine;

/** A computation's value at one party, with what the run cost. */
public record Result<T>(T value, RunMetrics metrics) {}
