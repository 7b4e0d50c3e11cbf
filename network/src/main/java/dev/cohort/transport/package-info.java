/**
 * The floor both transports stand on: what a party's connections mean, independent of how bytes
 * move. {@code dev.cohort.netty} (event loop, {@code ByteBuf}) and {@code dev.cohort.socket}
 * (blocking JDK sockets, byte arrays) sit on it as siblings and never import each other, so a Netty
 * party and a socket party can be peers, and every security rule exists once.
 *
 * <p>Contents: {@link dev.cohort.transport.WireFormat} (the frame layout, the hello, the limits and
 * every rule that decides a frame is malformed: the pre-hello cap, the incremental growth of a
 * large frame's words, the cap on an abort reason); {@link dev.cohort.transport.InboundFrame} (what
 * a decoder hands up); {@link dev.cohort.transport.PeerAdmission} (which party a connection may
 * belong to: id range, the party dialed, dial direction, certificate CN, one connection per peer,
 * with the messages operators and tests rely on, and two parties listed at one address); {@link
 * dev.cohort.transport.ProtocolMismatch} (a peer that speaks TLS where this party speaks plain TCP,
 * or the reverse, recognised from a connection's first bytes); {@link
 * dev.cohort.transport.RefusalLog} (refused connections logged without flooding the log); {@link
 * dev.cohort.transport.PauseWatch} (a failure seen after this process itself was paused says so);
 * {@link dev.cohort.transport.Backoff} (redialing); {@link dev.cohort.transport.TransportOptions}
 * (timeouts, frame limit, TLS, link emulation); {@link dev.cohort.transport.Failures} (how an I/O,
 * TLS or bind failure is worded); and {@code tls} (keys, certificates and the TLS 1.3 contexts of
 * both transports).
 *
 * <p>The invariant this package keeps: a byte stream or a connection refused by one transport is
 * refused by the other, with the same words.
 */
package dev.cohort.transport;
