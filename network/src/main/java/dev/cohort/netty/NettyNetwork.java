package dev.cohort.netty;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.netty.codec.FrameDecoder;
import dev.cohort.transport.Backoff;
import dev.cohort.transport.Failures;
import dev.cohort.transport.NettyIo;
import dev.cohort.transport.PeerAdmission;
import dev.cohort.transport.ProtocolMismatch;
import dev.cohort.transport.ProtocolMismatchException;
import dev.cohort.transport.RefusalLog;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.Future;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party's endpoint of the full mesh: it listens from {@link #bind} on, and {@link #connect}
 * dials the peers and returns the {@link NettyTransport} once every peer has proved its id.
 *
 * <p>One TCP connection per pair of parties: the lower id dials the higher one, so there is no tie
 * to break. A dialer that finds no listener tries again with exponential backoff (25 ms doubling to
 * 1 s), scheduled on the event loop, until the connect timeout. Every connection starts with a
 * hello from each side carrying its party id: the dialer's first, and the listener's only once it
 * has accepted the dialer's, so a stranger learns nothing. With TLS the id must match the CN of the
 * certificate the peer proved in the handshake, and a dialed peer must be the party dialed. A
 * connection that has not finished both handshakes within the handshake timeout is closed.
 *
 * <p>Once connected, each side sends a heartbeat after a third of the idle timeout without other
 * traffic, and a connection silent for the whole idle timeout is closed with the peer named as gone
 * silent: a crashed or frozen peer fails the others after the idle timeout, even while they wait
 * out a longer receive timeout.
 *
 * <p>A peer that speaks the other protocol (TLS where this party runs in plaintext, or the reverse:
 * {@link ProtocolMismatch}) is recognised by the first bytes it sends: with TLS, by a {@link
 * PlaintextSniffer} in front of the TLS handler, in plaintext by the frame decoder. A dialed peer
 * that answers so ends {@link #connect} at once with a {@link ProtocolMismatchException} that names
 * it and the setting; an accepted connection only leaves the reason for the "did not connect"
 * error, since a stranger could send the same bytes. Connections refused before their hello are
 * logged through a {@link RefusalLog}. {@link #connect} refuses an address list in which two
 * parties share a host and port.
 *
 * <p>All connections of a party share one event-loop thread, so registering peers needs no locks;
 * the party's own thread only reads the links once {@link #connect} has seen them all ready.
 */
public final class NettyNetwork implements TransportNetwork {

  private static final Logger log = LoggerFactory.getLogger(NettyNetwork.class);

  private final int self;
  private final TransportOptions options;
  private final PeerAdmission admission;
  private final EventLoopGroup group;
  private final PeerLink[] links;
  private final Arrivals arrivals;
  private final RefusalLog refusals = new RefusalLog(log);
  private final SslContext serverTls;
  private final SslContext clientTls;
  private io.netty.channel.Channel server;
  private volatile boolean closed;
  private boolean connecting;

  private NettyNetwork(int self, int parties, TransportOptions options) {
    this.admission = new PeerAdmission(self, parties);
    admission.checkIdentity(options);
    this.self = self;
    this.options = options;
    this.links = new PeerLink[parties];
    this.arrivals = new Arrivals(options.busyPoll().toNanos());
    for (int p = 0; p < parties; p++) {
      links[p] = new PeerLink(p, arrivals);
    }
    this.serverTls = options.tls() == null ? null : options.tls().serverContext();
    this.clientTls = options.tls() == null ? null : options.tls().clientContext();
    this.group =
        NettyIo.newGroup(
            1,
            r -> {
              Thread t = new Thread(r, "cohort-netty-" + PartyId.of(self));
              t.setDaemon(true);
              return t;
            },
            BusyPollStrategy.factory(loopPollNanos(options)));
  }

  /**
   * How long the event loop polls before it sleeps: the busy-poll time, except under link
   * emulation, whose delayed sends are scheduled tasks that a polling loop would run up to a poll
   * late.
   */
  private static long loopPollNanos(TransportOptions options) {
    return options.emulation().isNone() ? options.busyPoll().toNanos() : 0;
  }

  /**
   * Starts party {@code self} of {@code parties} listening on {@code listen} (port 0 picks a free
   * port; {@link #localAddress} tells which). Peers may dial from now on. Throws an {@link
   * java.io.UncheckedIOException} naming the address and the cause when it cannot listen there (the
   * port taken, for instance by this party started twice, or an address not of this host), with the
   * {@code java.net.BindException} as its cause ({@link Failures#cannotListen}).
   */
  public static NettyNetwork bind(
      int self, int parties, InetSocketAddress listen, TransportOptions options) {
    NettyNetwork network = new NettyNetwork(self, parties, options);
    try {
      network.server =
          new ServerBootstrap()
              .group(network.group)
              .channel(NettyIo.serverChannel(network.group))
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(network.new Initializer(null))
              .bind(listen)
              .syncUninterruptibly()
              .channel();
    } catch (Exception e) { // Netty rethrows the BindException unchecked, undeclared
      network.close();
      throw Failures.cannotListen(self, listen, e);
    }
    log.debug(
        "{} listening on {} ({})", PartyId.of(self), network.localAddress(), NettyIo.description());
    return network;
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) server.localAddress();
  }

  @Override
  public int myId() {
    return self;
  }

  @Override
  public int parties() {
    return links.length;
  }

  /**
   * Connects to every peer ({@code addresses} in party order; this party's entry is not used) and
   * returns the transport. Throws {@link NetworkException} naming the first peer missing after the
   * connect timeout, or a peer that failed to prove its id; the network is closed then.
   */
  @Override
  public NettyTransport connect(List<InetSocketAddress> addresses) {
    boolean again = connecting;
    connecting = true;
    admission.checkConnect(again, addresses);
    for (int p = 0; p < links.length; p++) {
      links[p].address(addresses.get(p));
    }
    admission.listed(addresses, this::missing, this::keepError);
    long timeoutMillis = options.connectTimeout().toMillis();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    for (int p = self + 1; p < links.length; p++) {
      Dialer dialer = new Dialer(links[p], addresses.get(p), deadline);
      group.execute(dialer::dial);
    }
    try {
      allReady().get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      close();
      throw missing(timeoutMillis);
    } catch (ExecutionException e) {
      close();
      if (e.getCause() instanceof ProtocolMismatchException mismatch) {
        throw new ProtocolMismatchException(mismatch.getMessage(), mismatch);
      }
      throw new NetworkException(e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new NetworkException(PartyId.of(self) + " was interrupted while connecting");
    }
    log.info(
        "{} connected to {} peers ({})",
        PartyId.of(self),
        links.length - 1,
        options.tls() == null
            ? "plain TCP, INSECURE"
            : "TLS 1.3 by " + options.tls().provider().implementation());
    return new NettyTransport(this, links, arrivals, options);
  }

  /** Completes when every peer is ready, or fails as soon as one cannot be. */
  private CompletableFuture<Void> allReady() {
    CompletableFuture<Void> all = new CompletableFuture<>();
    List<CompletableFuture<Void>> readies = new ArrayList<>();
    for (int p = 0; p < links.length; p++) {
      if (p != self) {
        CompletableFuture<Void> ready = links[p].ready;
        readies.add(ready);
        ready.whenComplete(
            (v, e) -> {
              if (e != null) {
                all.completeExceptionally(e);
              }
            });
      }
    }
    CompletableFuture.allOf(readies.toArray(new CompletableFuture<?>[0]))
        .thenRun(() -> all.complete(null));
    return all;
  }

  private NetworkException missing(long timeoutMillis) {
    for (int p = 0; p < links.length; p++) {
      if (p != self && !links[p].ready.isDone()) {
        String last = links[p].lastError();
        return new NetworkException(Failures.notConnected(links[p].name(), timeoutMillis, last));
      }
    }
    return new NetworkException("connecting timed out after " + timeoutMillis + " ms");
  }

  /** How long a dial attempt, and then the TLS handshake and hellos together, may take. */
  long handshakeTimeoutMillis() {
    return options.handshakeTimeout().toMillis();
  }

  long idleTimeoutMillis() {
    return options.idleTimeout().toMillis();
  }

  /** The event loop of all this party's connections; tests freeze or stop it to emulate a crash. */
  EventLoopGroup eventLoop() {
    return group;
  }

  /** True once the event loop has stopped and every connection and the listener are closed. */
  boolean isReleased() {
    if (!group.isTerminated() || (server != null && server.isOpen())) {
      return false;
    }
    for (PeerLink link : links) {
      if (link.channel() != null && link.channel().isOpen()) {
        return false;
      }
    }
    return true;
  }

  PeerLink link(int party) {
    return links[party];
  }

  /**
   * Binds a connection to the party its hello claims; on the event loop. Returns why the connection
   * is refused, or null when it now belongs to that party.
   */
  String register(
      io.netty.channel.Channel channel, int claimed, Dialer dialer, X509Certificate certificate) {
    String refusal = check(channel, claimed, dialer, certificate);
    if (refusal != null && dialer == null && admission.inRange(claimed)) {
      // Kept for the "did not connect" error: an operator sees why the party was turned away.
      links[claimed].lastError(PeerAdmission.refusedFrom(channel.remoteAddress(), refusal));
    }
    return refusal;
  }

  /** Logs the refusal of an accepted connection (see {@link RefusalLog}). */
  void refused(SocketAddress from, String reason) {
    refusals.refused(from, reason);
  }

  /**
   * An accepted connection from {@code from} opened in the other protocol ({@code reason} from
   * {@link ProtocolMismatch}): logged, and kept for the "did not connect" error of the party its
   * hello claims ({@code claimed}), or, when it said nothing this party can read (TLS bytes to a
   * plaintext party), of every lower peer still missing whose address is on the host it came from
   * (held until {@link #connect} has the addresses). It does not end {@code connect}: the bytes are
   * unauthenticated, and a stranger must not make this party give up on a real peer. On the event
   * loop.
   */
  void mismatchFrom(SocketAddress from, int claimed, String reason) {
    refusals.refused(from, reason);
    admission.blameMismatch(from, claimed, reason, this::missing, this::keepError);
  }

  private boolean missing(int party) {
    return !links[party].ready.isDone();
  }

  private void keepError(int party, String error) {
    links[party].lastError(error);
  }

  private String check(
      io.netty.channel.Channel channel, int claimed, Dialer dialer, X509Certificate certificate) {
    String refusal =
        admission.admit(
            claimed,
            dialer == null ? -1 : dialer.link.peer,
            dialer == null ? null : dialer.link.name(),
            certificate,
            party -> links[party].attach(channel));
    if (refusal == null) {
      log.debug(
          "{} connected to {} at {}",
          PartyId.of(self),
          PartyId.of(claimed),
          channel.remoteAddress());
    }
    return refusal;
  }

  /** Closes every connection once what was written to it has been flushed, then stops. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    List<ChannelFuture> closing = new ArrayList<>();
    for (PeerLink link : links) {
      io.netty.channel.Channel channel = link.channel();
      if (channel != null && channel.isOpen()) {
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        closing.add(channel.closeFuture());
      }
    }
    if (server != null && server.isOpen()) {
      closing.add(server.close());
    }
    refusals.flush();
    boolean mayWait = !group.next().inEventLoop(); // waiting on the loop itself would deadlock
    for (ChannelFuture f : closing) {
      if (mayWait) {
        f.awaitUninterruptibly(2, TimeUnit.SECONDS);
      }
    }
    Future<?> stopped = group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    if (mayWait) {
      stopped.awaitUninterruptibly(5, TimeUnit.SECONDS);
    }
  }

  /**
   * Builds the pipeline of one connection: with TLS, the sniffer of a plaintext peer and TLS; the
   * idle watch (heartbeats out, silence in), the link emulation if any, the frame decoder, then the
   * peer handler.
   */
  private final class Initializer extends ChannelInitializer<SocketChannel> {
    private final Dialer dialer; // null on accepted connections

    Initializer(Dialer dialer) {
      this.dialer = dialer;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
      if (serverTls != null) {
        channel.pipeline().addLast(new PlaintextSniffer(dialer == null));
        SslHandler ssl =
            dialer == null
                ? serverTls.newHandler(channel.alloc())
                : clientTls.newHandler(
                    channel.alloc(), dialer.address.getHostString(), dialer.address.getPort());
        ssl.setHandshakeTimeoutMillis(handshakeTimeoutMillis());
        channel.pipeline().addLast(ssl);
      }
      long idle = options.idleTimeout().toMillis();
      channel
          .pipeline()
          .addLast(new IdleStateHandler(false, idle, idle / 3, 0, TimeUnit.MILLISECONDS));
      if (!options.emulation().isNone()) {
        channel.pipeline().addLast(new LinkEmulationHandler(options.emulation()));
      }
      channel
          .pipeline()
          .addLast(
              new FrameDecoder(options.maxFrameBytes()),
              new PeerHandler(NettyNetwork.this, dialer));
    }
  }

  /** Dials one higher peer until it answers or the connect deadline passes; on the event loop. */
  final class Dialer {
    final PeerLink link;
    final InetSocketAddress address;
    private final long deadline;
    private final Backoff backoff = new Backoff();

    Dialer(PeerLink link, InetSocketAddress address, long deadline) {
      this.link = link;
      this.address = address;
      this.deadline = deadline;
    }

    void dial() {
      if (closed || link.ready.isDone()) {
        return;
      }
      new Bootstrap()
          .group(group)
          .channel(NettyIo.socketChannel(group))
          .option(ChannelOption.TCP_NODELAY, true)
          .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) handshakeTimeoutMillis())
          .handler(new Initializer(this))
          .connect(address)
          .addListener(
              (ChannelFuture f) -> {
                if (!f.isSuccess()) {
                  lastError(Failures.describe(f.cause()));
                  retry();
                }
              });
    }

    /** Dials again after the backoff, unless connected, refused for good, or out of time. */
    void retry() {
      if (closed || link.ready.isDone() || System.nanoTime() - deadline > 0) {
        return;
      }
      group.schedule(this::dial, backoff.nextMillis(), TimeUnit.MILLISECONDS);
    }

    void lastError(String error) {
      link.lastError(error);
    }

    /**
     * The peer answered in the other protocol (TLS against plain TCP): {@code message} from {@link
     * ProtocolMismatch}. It came from the address this party dialed, so connecting ends at once.
     */
    void mismatch(String message) {
      link.lastError(message);
      link.ready.completeExceptionally(new ProtocolMismatchException(message));
    }

    /** The peer answered but cannot be the party dialed: dialing again cannot help. */
    void refused(String reason) {
      link.lastError(reason);
      link.ready.completeExceptionally(
          new NetworkException(Failures.couldNotConnect(link.name(), reason)));
    }
  }
}
