/**
 * Protocol producers: the scopes applications compose, and the builder they call.
 *
 * <p>{@link dev.cohort.producer.Builder} is the {@link dev.cohort.api.Numeric} that applications
 * call; each call checks its arguments and records a gate in its scope through {@link
 * dev.cohort.gate.Gates}. Scopes: {@link dev.cohort.producer.ParallelProtocolProducer} (children
 * side by side; the body of every step, branch and loop iteration), {@link
 * dev.cohort.producer.LazyProtocolProducer} (a step built from the value before it: {@code
 * Numeric.seq} and {@code Numeric.par}), {@link dev.cohort.producer.SequentialProtocolProducer} (a
 * loop: {@code Numeric.loop}) and {@link dev.cohort.producer.Root} (a run or a session, which the
 * engine starts through {@link dev.cohort.gate.SessionScheduler}).
 *
 * <p>Layering: producers sit above the gate graph ({@link dev.cohort.gate}) and use it; the graph
 * sees them only through its own interfaces ({@link dev.cohort.gate.Scope}, {@link
 * dev.cohort.gate.Buildable}, {@link dev.cohort.gate.SessionBuilder}), never by name.
 *
 * <p>Invariant: every party builds the same scopes in the same order, so the parties' graphs agree.
 */
package dev.cohort.producer;
