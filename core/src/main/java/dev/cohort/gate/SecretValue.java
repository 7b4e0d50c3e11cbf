package dev.cohort.gate;

/** A single secret computed without a gate of its own (a constant, a value computed at once). */
final class SecretValue extends Value {

  SecretValue() {
    super(1);
  }
}
