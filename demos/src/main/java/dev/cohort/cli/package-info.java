/**
 * The {@code cohort} command line (picocli): {@link dev.cohort.cli.Cohort} is the root, with one
 * class per command.
 *
 * <ul>
 *   <li>{@code cohort demo distance-average | auction | filtered-average | inner-product}: the
 *       demos, every party in this JVM over loopback (the harness's {@code LocalParties}, measured
 *       by {@code LoopbackRun}) or one party per process from a parties file ({@code PartiesFile}),
 *       each printing what a measurement paper would report ({@code DemoReport});
 *   <li>{@code cohort bench sweep}: benchmark sweeps written as CSV and PNG plots;
 *   <li>{@code cohort keys}: a CA and per-party TLS keys;
 *   <li>{@code cohort preprocess}: the trusted dealer's SPDZ preprocessing files.
 * </ul>
 *
 * <p>Invariant: a user sees an error as one line {@code cohort: <message>} (exit code 2 for a
 * mistake in the arguments, 1 otherwise), never a stack trace unless {@code --verbose} is given.
 */
package dev.cohort.cli;
