/**
 * Running n parties in one JVM: {@link dev.cohort.harness.LocalParties} starts one engine per party
 * as threads over the in-memory transport and returns every party's result and metrics. The first
 * party to fail is named in a {@link dev.cohort.harness.PartyFailedException}; the others fail
 * promptly because a failing engine aborts its channel. Used by tests and by demos that keep all
 * parties in one process; never by a deployment, where each party is its own process.
 */
package dev.cohort.harness;
