package dev.cohort.api;

/**
 * A value that a computation produces later: an opened result, or the result of a step.
 *
 * <p>{@link #get()} may be called once the engine has computed the value: inside a later step of
 * the same computation, or after the computation has finished. Calling it earlier throws {@link
 * IllegalStateException}.
 */
@FunctionalInterface
public interface Deferred<T> {

  T get();

  /** A value that is known already. */
  static <T> Deferred<T> of(T value) {
    return () -> value;
  }
}
