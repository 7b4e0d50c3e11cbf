package dev.cohort.producer;

import dev.cohort.api.Deferred;
import dev.cohort.api.Step;
import dev.cohort.gate.Gates;
import dev.cohort.gate.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scopes share about the values of steps: reading a step's result, finding the graph's
 * value behind a secret handle, and handles to secrets that a step computes later ({@link
 * dev.cohort.api.Numeric#secretOf}).
 */
final class Steps {

  private Steps() {}

  /** The value of a step's result, with a clear error when it was not computed inside it. */
  static <T> T valueOfStep(Deferred<T> result) {
    try {
      return result.get();
    } catch (IllegalStateException e) {
      throw new IllegalStateException(
          "a step returned a value that its own gates do not compute: " + e.getMessage(), e);
    }
  }

  /** The graph's value behind an application's secret handle. */
  static Value valueOf(Object secret) {
    if (secret instanceof Value v) {
      return v;
    }
    if (secret instanceof Lanes.LaneSecret) {
      return Lanes.valueOf(secret);
    }
    throw new IllegalArgumentException(
        "a step's value must be a Secret or SecretVector made by a builder, got "
            + (secret == null ? "null" : secret.getClass().getName()));
  }

  /**
   * A value of {@code length} secrets, usable at once as an operand, that takes the shares of the
   * secret {@code step} returns: now if the step has finished, else when it does.
   */
  static <S> Value placeholder(Gates gates, Step<S> step, int length) {
    LazyProtocolProducer<?, S> lazy =
        step instanceof LazyProtocolProducer<?, S> l
            ? l
            : (LazyProtocolProducer<?, S>) step.seq((s, v) -> Deferred.of(v));
    if (lazy.isComplete()) {
      return gates.aliasOf(valueOf(lazy.get()), length);
    }
    Value out = gates.placeholder(length);
    lazy.forwardTo(out);
    return out;
  }

  /** The values of {@code results}, in order, once each is available. */
  static <T> Deferred<List<T>> all(List<Deferred<T>> results) {
    return () -> {
      List<T> values = new ArrayList<>(results.size());
      for (Deferred<T> d : results) {
        values.add(d.get());
      }
      return values;
    };
  }
}
