package dev.cohort.producer;

import dev.cohort.api.Secret;

/** A single secret: inside the engine, a vector of length one. */
final class SecretValue extends Value implements Secret {

  SecretValue() {
    super(1);
  }
}
