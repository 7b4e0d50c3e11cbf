/**
 * The socket transport: a {@link dev.cohort.net.Channel} on blocking JDK sockets, in which each
 * party's own thread writes and reads its frames, over JDK TLS 1.3 with mutual authentication (or,
 * for loopback benchmarks only, plain TCP behind {@link
 * dev.cohort.netty.NettyOptions#insecurePlaintext()}). Same connection rules, wire format, options
 * and errors as {@link dev.cohort.netty}, fewer thread hand-offs per round.
 *
 * <pre>{@code
 * NettyOptions options = NettyOptions.tls(TlsIdentity.load(keys, 1));
 * try (SocketNetwork network = SocketNetwork.bind(1, 3, new InetSocketAddress(7001), options);
 *     SocketTransport channel = network.connect(addresses)) {  // every party, in party order
 *   Result<BigInteger> result = new Engine(suite, channel, EngineConfig.defaults()).run(c);
 * }
 * }</pre>
 *
 * <p>Layout: {@link dev.cohort.socket.SocketNetwork} listens, dials and verifies peers; {@link
 * dev.cohort.socket.SocketTransport} runs the rounds; {@code PeerConnection} writes one peer's
 * frames (small ones from the party thread, large ones from a writer thread); {@code FrameReader}
 * and {@code FrameEncoder} speak the wire format of {@link dev.cohort.netty.codec.FrameCodec}.
 */
package dev.cohort.socket;
