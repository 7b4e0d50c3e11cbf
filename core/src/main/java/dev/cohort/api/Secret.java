package dev.cohort.api;

/**
 * A secret field element: a handle to shares held by the parties. Applications combine secrets
 * through a {@link Numeric} builder; they never see the shares.
 */
public interface Secret {}
