package dev.cohort.api;

/** The deferred result of a sequential step, which further steps can follow. */
public interface Step<T> extends Deferred<T> {

  /**
   * A step that starts only when this one has finished, and receives its value. The gates it builds
   * see every value opened by this step and by the steps before it.
   */
  <R> Step<R> seq(StepFunction<? super T, R> next);
}
