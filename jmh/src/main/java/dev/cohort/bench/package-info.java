/**
 * JMH benchmarks, one class per subject: BGW and SPDZ multiplication ({@link
 * dev.cohort.bench.BgwMultiplyBenchmark}, {@link dev.cohort.bench.SpdzBenchmark}), comparison
 * ({@link dev.cohort.bench.ComparisonBenchmark}), interleaved sessions ({@link
 * dev.cohort.bench.SessionsBenchmark}), the transports ({@link dev.cohort.bench.NetworkBenchmark}),
 * the input clients' connections ({@link dev.cohort.bench.ClientLinkBenchmark}), and the FRESCO
 * 1.3.4 baseline on the same workloads ({@link dev.cohort.bench.FrescoBaselineBenchmark}, {@link
 * dev.cohort.bench.FrescoComparisonBenchmark}). {@link dev.cohort.bench.Transports} opens standing
 * parties of the harness ({@code dev.cohort.harness.LocalParties}) over the transport a benchmark
 * names, so engines and threads stay alive across invocations and a measurement sees the protocol,
 * not start-up. {@link dev.cohort.bench.SessionsCost} and {@link
 * dev.cohort.bench.BytesPerMultiplication} are plain {@code main} programs for CPU time, allocation
 * and bytes per multiplication, the figures that vary little on a shared machine.
 *
 * <p>Benchmarks run by hand ({@code java -jar jmh/target/benchmarks.jar}); they are not a CI gate.
 */
package dev.cohort.bench;
