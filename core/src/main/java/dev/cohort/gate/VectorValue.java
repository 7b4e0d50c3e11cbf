package dev.cohort.gate;

/**
 * A vector of secrets computed without a gate of its own (constants, values computed at once, a
 * later step's result), held as one node over arrays.
 */
final class VectorValue extends Value {

  VectorValue(int length) {
    super(length);
  }
}
