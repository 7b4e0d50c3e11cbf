/**
 * The engine: one party's round loop over a {@link dev.cohort.net.Channel}.
 *
 * <p>{@link dev.cohort.engine.Engine} pulls the interactive gates that are ready from the gate
 * graph ({@link dev.cohort.gate.Graph}, up to {@link dev.cohort.engine.EngineConfig#batchSize()}
 * elements in flight), lets every running suite protocol write its messages, exchanges one frame
 * per peer, lets them read, and repeats until the computation is done; it also runs many
 * independent sessions side by side. Each run reports what it cost in {@link
 * dev.cohort.engine.RunMetrics}. Before the first round, {@link
 * dev.cohort.engine.ConfigurationCheck} compares the parties' configurations at no extra round. The
 * engine wires the graph to the producers above it: it hands the graph's session scheduler {@link
 * dev.cohort.producer.Root#build}, which builds each computation in a root scope.
 *
 * <p>Invariant: every party evaluates the same gates in the same order, so the parties' frames line
 * up round by round.
 */
package dev.cohort.engine;
