/**
 * Prime fields as static-style batch kernels over packed {@code long[]} columns.
 *
 * <p>{@link dev.cohort.field.Field} is the contract: an element is a fixed number of little-endian
 * 64-bit words, element {@code i} of a packed array occupies words {@code [i * words(), (i + 1) *
 * words())}, and every element a kernel takes or returns is canonical, in {@code [0, p)}. {@link
 * dev.cohort.field.Mersenne61} (one word) and {@link dev.cohort.field.Mersenne127} (two words)
 * reduce with shifts and {@link java.lang.Math#multiplyHigh}, without allocation; {@link
 * dev.cohort.field.BigPrimeField} serves any other odd prime on {@link java.math.BigInteger};
 * {@link dev.cohort.field.Fields} finds a field by modulus or name.
 *
 * <p>Suites call a kernel once per batch, never once per element. This package depends on no other
 * Cohort package but {@code random}.
 */
package dev.cohort.field;
