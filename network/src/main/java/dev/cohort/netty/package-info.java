/**
 * The Netty transport: the {@link dev.cohort.net.Channel} of a party whose peers are other
 * processes or hosts, over TLS 1.3 with mutual authentication (or, for loopback benchmarks only,
 * plain TCP behind {@link dev.cohort.transport.TransportOptions#insecurePlaintext()}).
 *
 * <pre>{@code
 * Certificates.generate(keys, 3);                      // once: a CA and one key per party
 * TransportOptions options = TransportOptions.tls(TlsIdentity.load(keys, 1));
 * try (NettyNetwork network = NettyNetwork.bind(1, 3, new InetSocketAddress(7001), options);
 *     NettyTransport channel = network.connect(addresses)) {   // every party, in party order
 *   Result<BigInteger> result = new Engine(suite, channel, EngineConfig.defaults()).run(c);
 * }
 * }</pre>
 *
 * <p>It sits on {@link dev.cohort.transport} (wire format and its checks, peer admission, backoff,
 * options, TLS) beside {@code dev.cohort.socket}, and never imports it.
 *
 * <p>Layout: {@link dev.cohort.netty.NettyNetwork} listens, dials and verifies peers; {@link
 * dev.cohort.netty.NettyTransport} runs the rounds; {@code LinkEmulationHandler} adds the latency
 * and bandwidth cap of {@link dev.cohort.transport.LinkEmulation} for experiments on one machine;
 * {@code PlaintextSniffer} recognises a plaintext peer in front of TLS; {@code codec} encodes and
 * decodes the frames of {@link dev.cohort.transport.WireFormat} (the only place a {@code ByteBuf}
 * is seen).
 *
 * <p>Timeouts, all in {@link dev.cohort.transport.TransportOptions}: connect (every peer present),
 * handshake (TLS and ids, per connection), receive (a round's frame) and idle (no traffic at all,
 * heartbeats included: a dead or frozen peer).
 */
package dev.cohort.netty;
