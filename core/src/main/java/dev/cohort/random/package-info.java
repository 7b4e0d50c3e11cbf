/**
 * The one source of protocol randomness: {@link dev.cohort.random.Prg}, a cryptographic
 * pseudo-random generator ({@link dev.cohort.random.AesCtrPrg}, AES-128 in counter mode through the
 * JDK). Production seeds it from {@link java.security.SecureRandom}; tests pass a fixed seed so
 * that runs repeat; parties that share a key draw the same values without talking. Nothing secret
 * ever comes from {@link java.util.Random}.
 */
package dev.cohort.random;
