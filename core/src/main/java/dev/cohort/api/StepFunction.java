package dev.cohort.api;

/**
 * A lazy step: builds its gates from the value of the step before it, once that value exists. This
 * is how a computation loops or branches on opened values.
 */
@FunctionalInterface
public interface StepFunction<T, R> {

  Deferred<R> build(Numeric builder, T previous);
}
