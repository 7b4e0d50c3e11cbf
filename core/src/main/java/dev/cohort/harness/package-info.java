/**
 * Running n parties in one JVM, for tests, benchmarks and demos: {@link
 * dev.cohort.harness.LocalParties} starts one engine per party as threads and returns every party's
 * result and metrics, one-shot (fresh parties every run) or standing (connected once, many runs).
 * How the parties reach each other is a {@link dev.cohort.harness.Mesh}: the in-memory transport
 * here, a real transport on loopback in the network module ({@code dev.cohort.harness.loopback}).
 * {@link dev.cohort.harness.PartyThreads} runs one task per party and names the first party to fail
 * in a {@link dev.cohort.harness.PartyFailedException}; the others fail promptly because a failing
 * engine aborts its channel. A deployment runs one party per process instead.
 */
package dev.cohort.harness;
