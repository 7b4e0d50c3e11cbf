package dev.cohort.api;

/**
 * A vector of secret field elements held as one object over arrays: an operation on two vectors is
 * one gate, whatever their length.
 */
public interface SecretVector {

  int length();
}
