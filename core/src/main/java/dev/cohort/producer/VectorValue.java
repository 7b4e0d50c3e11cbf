package dev.cohort.producer;

import dev.cohort.api.SecretVector;

/** A vector of secrets, held as one node over arrays. */
final class VectorValue extends Value implements SecretVector {

  VectorValue(int length) {
    super(length);
  }

  @Override
  public int length() {
    return length;
  }
}
