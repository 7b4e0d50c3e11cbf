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
 * <p>A fused per-field path (a kernel that does several steps at once for one field, such as {@link
 * dev.cohort.field.SmallConstants127} for BGW's small public constants, or a suite's own 128-bit
 * loops over {@link dev.cohort.field.Limbs127}) is allowed where a kernel test pins it to the
 * generic path: the same inputs through the generic {@code Field} kernels must give the same words.
 *
 * <p>Suites call a kernel once per batch, never once per element. This package depends on no other
 * Cohort package but {@code random}.
 */
package dev.cohort.field;
