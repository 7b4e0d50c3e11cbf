/**
 * The gate graph: native gates, the values they compute, and how ready gates become the batches the
 * engine evaluates.
 *
 * <p>A {@link dev.cohort.gate.Value} holds the shares of one or more secrets; a {@link
 * dev.cohort.gate.NativeGate} is a value computed by a gate, either a {@link
 * dev.cohort.gate.LocalGate} (no communication, run at once when ready) or an {@link
 * dev.cohort.gate.InteractiveGate}, which {@link dev.cohort.gate.Graph} groups by kind ({@link
 * dev.cohort.gate.ReadyGroups}) into {@link dev.cohort.gate.GateBatch}es for the engine. {@link
 * dev.cohort.gate.SessionScheduler} runs many sessions in one graph, a bounded number in flight.
 *
 * <p>Layering: the scopes that record gates ({@code dev.cohort.producer}) use this package through
 * {@link dev.cohort.gate.Gates}; this package sees them only as a {@link dev.cohort.gate.Scope}
 * (what a gate reports to), a {@link dev.cohort.gate.Buildable} (work queued until the graph
 * drains) and a {@link dev.cohort.gate.SessionBuilder} (how a session's computation is built), and
 * never names the producer package.
 *
 * <p>Invariant: every party builds the same graph in the same order, so the ready groups, and the
 * order in which they write and read their messages, agree across parties.
 */
package dev.cohort.gate;
