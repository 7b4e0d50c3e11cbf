/**
 * Protocol producers: how a computation becomes a dataflow graph of native gates.
 *
 * <p>{@link dev.cohort.producer.Builder} is the {@link dev.cohort.api.Numeric} that applications
 * call; each call records a {@link dev.cohort.producer.NativeGate} in its scope. Gates are {@link
 * dev.cohort.producer.LocalGate}s (no communication, run at once when ready) or {@link
 * dev.cohort.producer.InteractiveGate}s, which {@link dev.cohort.producer.Graph} groups by kind
 * ({@link dev.cohort.producer.ReadyGroups}) into {@link dev.cohort.producer.GateBatch}es for the
 * engine. Scopes: {@link dev.cohort.producer.ParallelProtocolProducer} (children side by side),
 * {@link dev.cohort.producer.LazyProtocolProducer} (a step built from the value before it), {@link
 * dev.cohort.producer.SequentialProtocolProducer} (a loop) and {@link
 * dev.cohort.producer.SessionScheduler} (many sessions, a bounded number in flight).
 *
 * <p>Invariant: every party builds the same graph in the same order, so the ready groups, and the
 * order in which they write and read their messages, agree across parties.
 */
package dev.cohort.producer;
