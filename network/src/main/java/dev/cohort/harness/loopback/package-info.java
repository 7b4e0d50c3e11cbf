/**
 * {@link dev.cohort.harness.LocalParties} over a real transport: {@link
 * dev.cohort.harness.loopback.Loopback} binds every party's Netty or socket endpoint ({@link
 * dev.cohort.harness.loopback.Transport}) on 127.0.0.1, with TLS keys generated for the run (or
 * given, or INSECURE plain TCP) and optional link emulation, as the {@link dev.cohort.harness.Mesh}
 * the parties connect through. Tests, benchmarks and demos switch from the in-memory transport to a
 * real one by passing a {@code Loopback} to the builder.
 *
 * <p>This package sits above both transports: it may use {@code dev.cohort.netty} and {@code
 * dev.cohort.socket}, which must never use it (TransportLayeringTest). It is a sub-package of
 * core's {@code dev.cohort.harness}, not part of it: one package never spans two jars.
 */
package dev.cohort.harness.loopback;
