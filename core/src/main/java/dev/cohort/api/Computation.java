package dev.cohort.api;

/**
 * An application: a function from a builder to a deferred result. It is written once and runs
 * unchanged on every suite. The builder only records gates; the engine evaluates them later, so the
 * function must not wait for values (use {@link Numeric#seq} steps to act on opened values).
 */
@FunctionalInterface
public interface Computation<T> {

  Deferred<T> build(Numeric builder);
}
