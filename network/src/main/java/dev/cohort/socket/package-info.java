/**
 * The socket transport: a {@link dev.cohort.net.Channel} on blocking JDK sockets, in which each
 * party's own thread writes and reads its frames, over JDK TLS 1.3 with mutual authentication (or,
 * for loopback benchmarks only, plain TCP behind {@link
 * dev.cohort.transport.TransportOptions#insecurePlaintext()}). Same connection rules, wire format,
 * options and errors as the Netty transport, all from {@link dev.cohort.transport} (this package
 * never imports {@code dev.cohort.netty}), with fewer thread hand-offs per round.
 *
 * <pre>{@code
 * TransportOptions options = TransportOptions.tls(TlsIdentity.load(keys, 1));
 * try (SocketNetwork network = SocketNetwork.bind(1, 3, new InetSocketAddress(7001), options);
 *     SocketTransport channel = network.connect(addresses)) {  // every party, in party order
 *   Result<BigInteger> result = new Engine(suite, channel, EngineConfig.defaults()).run(c);
 * }
 * }</pre>
 *
 * <p>Layout: {@link dev.cohort.socket.SocketNetwork} starts and stops the jobs of connecting:
 * {@code Acceptor} listens and verifies accepted connections, {@code Dialer} dials the higher
 * peers, {@code Handshake} runs TLS and the hellos, {@code Watchdog} enforces the handshake timeout
 * and {@code PeerSlots} admits peers by {@link dev.cohort.transport.PeerAdmission}; {@link
 * dev.cohort.socket.SocketTransport} runs the rounds (its javadoc has the measured figures and when
 * to pick it); {@code PeerConnection} writes one peer's frames (small ones from the party thread,
 * large ones from a writer thread); {@code FrameReader} and {@code FrameEncoder} speak the wire
 * format of {@link dev.cohort.transport.WireFormat}; {@code BufferedSocket} buffers the TCP stream
 * under the JDK's TLS and keeps its first bytes, by which {@code Handshake} recognises a peer that
 * speaks plain TCP ({@code PlaintextPeerException}).
 *
 * <p>Timeouts, all in {@link dev.cohort.transport.TransportOptions}: connect (every peer present),
 * handshake (TLS and ids, per connection) and receive (a round's frames). The idle timeout is not
 * used: there are no heartbeats, and a frozen peer is caught by the receive timeout.
 */
package dev.cohort.socket;
