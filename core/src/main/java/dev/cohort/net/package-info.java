/**
 * The transport SPI and the in-memory transport.
 *
 * <p>{@link dev.cohort.net.Channel} is the transport's whole interface to the engine: each {@link
 * dev.cohort.net.Channel#exchange} is one round, one frame of 64-bit words to each peer and one
 * from each peer, in order. {@link dev.cohort.net.InMemoryNetwork} implements it for parties as
 * threads in one JVM (what unit tests use); the {@code network} module implements it over TCP.
 * {@link dev.cohort.net.TrafficStats} counts what a channel sent and received per peer.
 *
 * <p>Invariant: the network never sees gates, suites or fields; it sees words, a peer and a round.
 */
package dev.cohort.net;
