package dev.cohort.socket;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party's endpoint of the full mesh on blocking JDK sockets: it listens from {@link #bind} on,
 * and {@link #connect} dials the peers and returns the {@link SocketTransport} once every peer has
 * proved its id. The connection rules and the wire format are {@link NettyNetwork}'s, so a socket
 * party and a Netty party can be peers.
 *
 * <p>One TCP connection per pair of parties: the lower id dials the higher one. Each higher peer is
 * dialed on its own short-lived thread, again after a failed attempt with exponential backoff (25
 * ms doubling to 1 s), until the connect timeout. Every connection starts with a hello from each
 * side carrying its party id: the dialer's first, and the listener's only once it has accepted the
 * dialer's, so a stranger learns nothing. With TLS (1.3 only, JDK, both sides present certificates
 * of the deployment's CA and nothing else is trusted) the id must match the CN of the certificate
 * the peer proved, and a dialed peer must be the party dialed. A connection that has not finished
 * both handshakes within the handshake timeout is closed.
 *
 * <p>Threads, all daemons: until every peer is connected, one accepts connections (each one is
 * verified on a thread of its own, so a stranger that says nothing delays no other connection), one
 * closes connections that miss the handshake timeout, and one dials each higher peer. At most
 * {@link #maxVerifying} accepted connections (the parties plus 8) are verified at once; while that
 * many are, a newcomer is closed at once with a log line, so idle connections cost at most that
 * many threads. An honest dialer turned away dials again with its backoff: a stranger that holds
 * every slot delays it until the stranger's connections reach the handshake timeout, but cannot
 * exhaust this party's threads. Once the mesh is complete a newcomer could only be refused, so
 * these stop and the party no longer listens; the transport then adds a writer thread per peer on
 * the first large frame, stopped by {@link #close}. There are no heartbeats: the idle timeout of
 * the options is not used, and a frozen peer that keeps its connection open is caught by the
 * receive timeout of a round.
 */
public final class SocketNetwork implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SocketNetwork.class);
  private static final long LINGER_AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(2);

  /**
   * TLS 1.3 suites, most preferred first. AES-128-GCM first, as BoringSSL (the Netty transport)
   * prefers it too: on the JDK's TLS it costs 40% less CPU than AES-256-GCM for bulk rounds (8 MB
   * frames, 3 parties, 2 cores: 8 s instead of 13 s of CPU for 1.4 GB), the JDK's default choice.
   */
  private static final String[] CIPHER_SUITES = {
    "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"
  };

  /** The name of every thread of this transport starts with this. */
  static final String THREAD_PREFIX = "cohort-socket-";

  private final int self;
  private final TransportOptions options;
  private final SSLContext tls; // null: plain TCP
  private final ServerSocket server;
  private final Thread acceptor;
  private final ExecutorService handshakes; // verifies accepted connections, dials higher peers
  private final ScheduledThreadPoolExecutor watchdog; // enforces the handshake timeout
  private final Set<Socket> unverified = ConcurrentHashMap.newKeySet();
  private final Semaphore verifying; // a permit per accepted connection being verified
  private boolean saturated; // acceptor thread only: refusing newcomers, logged once

  // guarded by this
  private final PeerConnection[] peers;
  private final boolean[] reserved; // verified, saying its hello, not yet attached
  private final String[] lastError;
  private NetworkException refused;

  private volatile InetSocketAddress[] addresses;
  private volatile boolean closed;
  private boolean connecting;

  private SocketNetwork(int self, int parties, TransportOptions options) throws IOException {
    if (parties < 2) {
      throw new IllegalArgumentException("parties (" + parties + ") must be >= 2");
    }
    if (self < 0 || self >= parties) {
      throw new IllegalArgumentException(
          "party index (" + self + ") must be in [0, " + parties + ")");
    }
    if (!LinkEmulation.NONE.equals(options.emulation())) {
      throw new IllegalArgumentException(
          "the socket transport cannot emulate links ("
              + options.emulation()
              + "); use NettyNetwork for link emulation");
    }
    if (options.tls() != null && options.tls().provider() == TlsProvider.OPENSSL) {
      throw new IllegalArgumentException(
          "the socket transport runs the JDK's TLS; TlsProvider.OPENSSL is for NettyNetwork");
    }
    if (options.tls() != null && options.tls().party() != self) {
      throw new IllegalArgumentException(
          "the TLS certificate is for "
              + Certificates.commonNameOf(options.tls().certificate())
              + ", not for "
              + Certificates.commonName(self));
    }
    this.self = self;
    this.options = options;
    this.tls = options.tls() == null ? null : options.tls().jdkContext();
    this.server = tls == null ? new ServerSocket() : BufferedSocket.server();
    this.peers = new PeerConnection[parties];
    this.reserved = new boolean[parties];
    this.lastError = new String[parties];
    String me = PartyId.of(self).toString();
    this.verifying = new Semaphore(maxVerifying(parties));
    this.handshakes = Executors.newCachedThreadPool(daemons(THREAD_PREFIX + "handshake-" + me));
    this.watchdog = new ScheduledThreadPoolExecutor(1, daemons(THREAD_PREFIX + "timer-" + me));
    watchdog.setRemoveOnCancelPolicy(true);
    this.acceptor = daemons(THREAD_PREFIX + "accept-" + me).newThread(this::accept);
  }

  /**
   * Accepted connections verified at once: every lower party dialing at the same time, with room
   * for attempts that overlap a retry.
   */
  static int maxVerifying(int parties) {
    return parties + 8;
  }

  private static ThreadFactory daemons(String name) {
    AtomicInteger count = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, count.getAndIncrement() == 0 ? name : name + "-" + count.get());
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Starts party {@code self} of {@code parties} listening on {@code listen} (port 0 picks a free
   * port; {@link #localAddress} tells which). Peers may dial from now on. Refuses options this
   * transport cannot honour (link emulation, the BoringSSL provider).
   */
  public static SocketNetwork bind(
      int self, int parties, InetSocketAddress listen, TransportOptions options) {
    SocketNetwork network;
    try {
      network = new SocketNetwork(self, parties, options);
    } catch (IOException e) {
      throw new NetworkException(
          PartyId.of(self) + " could not open a socket: " + Failures.describe(e), e);
    }
    try {
      network.server.setReuseAddress(true);
      network.server.bind(listen, 64);
    } catch (IOException e) {
      network.close();
      throw new NetworkException(
          PartyId.of(self) + " could not listen on " + listen + ": " + Failures.describe(e), e);
    }
    network.acceptor.start();
    log.debug("{} listening on {}", PartyId.of(self), network.localAddress());
    return network;
  }

  public InetSocketAddress localAddress() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  public int self() {
    return self;
  }

  public int parties() {
    return peers.length;
  }

  /**
   * Connects to every peer ({@code addresses} in party order; this party's entry is not used) and
   * returns the transport. Throws {@link NetworkException} naming the first peer missing after the
   * connect timeout, or a peer that failed to prove its id; the network is closed then.
   */
  public SocketTransport connect(List<InetSocketAddress> addresses) {
    if (connecting) {
      throw new IllegalStateException(PartyId.of(self) + " has connected already");
    }
    connecting = true;
    if (addresses.size() != peers.length) {
      throw new IllegalArgumentException(
          "addresses (" + addresses.size() + ") must list all " + peers.length + " parties");
    }
    this.addresses = addresses.toArray(new InetSocketAddress[0]);
    long timeoutMillis = options.connectTimeout().toMillis();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    PeerConnection[] connected;
    try {
      for (int p = self + 1; p < peers.length; p++) {
        int peer = p;
        handshakes.execute(() -> dialUntilConnected(peer, deadline));
      }
      connected = awaitAll(deadline, timeoutMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      close();
      throw new NetworkException(PartyId.of(self) + " was interrupted while connecting");
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    stopListening();
    log.info(
        "{} connected to {} peers ({})",
        PartyId.of(self),
        peers.length - 1,
        tls == null ? "plain TCP, INSECURE" : "TLS 1.3 by JDK sockets");
    String[] names = new String[peers.length];
    for (int p = 0; p < peers.length; p++) {
      names[p] = name(p);
    }
    return new SocketTransport(this, connected, names, options);
  }

  /** Waits until every peer is attached; throws on a refusal or at the deadline. */
  private synchronized PeerConnection[] awaitAll(long deadline, long timeoutMillis)
      throws InterruptedException {
    while (true) {
      if (refused != null) {
        throw refused;
      }
      int missing = firstMissing();
      if (missing < 0) {
        return peers.clone();
      }
      long left = deadline - System.nanoTime();
      if (left <= 0 || closed) {
        String last = lastError[missing];
        throw new NetworkException(
            name(missing)
                + " did not connect within "
                + timeoutMillis
                + " ms"
                + (last == null ? "" : " (last attempt: " + last + ")"));
      }
      TimeUnit.NANOSECONDS.timedWait(this, left);
    }
  }

  private int firstMissing() {
    for (int p = 0; p < peers.length; p++) {
      if (p != self && peers[p] == null) {
        return p;
      }
    }
    return -1;
  }

  /** "P2 (10.0.0.2:7002)", or "P2" before the addresses are known. */
  String name(int party) {
    InetSocketAddress[] known = addresses;
    if (known == null) {
      return PartyId.of(party).toString();
    }
    InetSocketAddress a = known[party];
    return PartyId.of(party) + " (" + a.getHostString() + ":" + a.getPort() + ")";
  }

  // Dialing, on a handshake thread per higher peer.

  private void dialUntilConnected(int peer, long deadline) {
    long delayMillis = 25;
    try {
      while (!closed && !dial(peer, deadline)) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
          return;
        }
        Thread.sleep(Math.min(delayMillis, left));
        delayMillis = Math.min(delayMillis * 2, 1000);
      }
    } catch (InterruptedException e) {
      // closed: stop dialing
    } catch (NetworkException e) {
      synchronized (this) {
        if (refused == null) {
          refused = e;
        }
        notifyAll();
      }
    }
  }

  /**
   * One attempt to connect to {@code peer}: true once connected, false to dial again after the
   * backoff (the reason is kept for the error); throws when the peer answered but cannot be the
   * party dialed, or failed TLS, since dialing again cannot help.
   */
  private boolean dial(int peer, long deadline) {
    InetSocketAddress address = addresses[peer];
    Socket raw = tls == null ? new Socket() : new BufferedSocket();
    unverified.add(raw); // close() ends a connect or handshake still under way
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> watch = null;
    try {
      if (closed) {
        throw new IOException("the network is closed");
      }
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      try {
        raw.connect(address, (int) Math.max(1, Math.min(handshakeMillis(), left)));
      } catch (SocketTimeoutException e) {
        if (left < handshakeMillis()) {
          // Cut short by the connect deadline: the attempt before says more about the peer.
          PeerConnection.closeQuietly(raw);
          return false;
        }
        throw e;
      }
      watch = watch(raw, late);
      PeerConnection connection = open(raw, address, true);
      connection.writeNow(FrameEncoder.hello(self));
      InboundFrame frame = connection.read(System.nanoTime() + handshakeNanos());
      if (!watch.cancel(false)) {
        throw new IOException("closed by the handshake timeout");
      }
      String refusal;
      if (frame instanceof InboundFrame.Hello hello) {
        refusal = register(hello.party(), peer, peerCertificate(connection), null);
        if (refusal == null) {
          unverified.remove(raw); // before it counts as connected: stopListening closes the rest
          attach(hello.party(), connection);
          return true;
        }
      } else if (frame == null) {
        lastError(peer, "closed the connection before its hello");
        PeerConnection.closeQuietly(raw);
        return false;
      } else if (frame instanceof InboundFrame.Error error) {
        refusal = "broke the frame format: " + error.reason();
      } else {
        refusal = "sent a frame before its hello";
      }
      PeerConnection.closeQuietly(raw);
      throw new NetworkException("could not connect to " + name(peer) + ": " + refusal);
    } catch (IOException e) {
      PeerConnection.closeQuietly(raw);
      if (late.get()) {
        lastError(peer, handshakeTimeoutReason());
      } else if (e instanceof SSLHandshakeException) {
        // A certificate problem: dialing again cannot help.
        throw new NetworkException(
            "could not connect to "
                + name(peer)
                + ": TLS handshake failed: "
                + Failures.describe(e),
            e);
      } else {
        lastError(
            peer,
            (e instanceof SSLException ? "TLS handshake failed: " : "") + Failures.describe(e));
      }
      return false;
    } finally {
      unverified.remove(raw);
      if (watch != null) {
        watch.cancel(false);
      }
    }
  }

  private synchronized void lastError(int peer, String error) {
    lastError[peer] = error;
  }

  // Accepting, on the acceptor thread, then a handshake thread per connection.

  private void accept() {
    while (!closed) {
      Socket raw;
      try {
        raw = server.accept();
      } catch (IOException e) {
        if (!closed && !server.isClosed()) { // closed on purpose: the mesh is complete
          log.warn("{} stopped accepting connections: {}", PartyId.of(self), Failures.describe(e));
        }
        return;
      }
      if (!verifying.tryAcquire()) {
        refuseWhileSaturated(raw);
        continue;
      }
      saturated = false;
      try {
        handshakes.execute(
            () -> {
              try {
                accepted(raw);
              } finally {
                verifying.release();
              }
            });
      } catch (RejectedExecutionException e) {
        verifying.release();
        PeerConnection.closeQuietly(raw); // closed meanwhile
        return;
      }
    }
  }

  /** Closes a connection that arrived while every verification slot is taken. */
  private void refuseWhileSaturated(Socket raw) {
    SocketAddress from = raw.getRemoteSocketAddress();
    PeerConnection.closeQuietly(raw);
    int max = maxVerifying(peers.length);
    if (!saturated) {
      saturated = true;
      log.warn(
          "refused a connection from {}: {} connections are being verified already (each for at"
              + " most {} ms); further refusals are logged at DEBUG until a slot is free",
          from,
          max,
          handshakeMillis());
    } else {
      log.debug(
          "refused a connection from {}: {} connections are being verified already", from, max);
    }
  }

  private void accepted(Socket raw) {
    unverified.add(raw);
    if (closed) {
      PeerConnection.closeQuietly(raw);
      unverified.remove(raw);
      return;
    }
    SocketAddress from = raw.getRemoteSocketAddress();
    AtomicBoolean late = new AtomicBoolean();
    ScheduledFuture<?> watch = null;
    boolean kept = false;
    try {
      watch = watch(raw, late);
      PeerConnection connection = open(raw, null, false);
      InboundFrame frame = connection.read(System.nanoTime() + handshakeNanos());
      String refusal;
      if (frame instanceof InboundFrame.Hello hello) {
        refusal = register(hello.party(), -1, peerCertificate(connection), from);
        if (refusal == null) {
          kept = answer(hello.party(), connection, watch);
          return;
        }
      } else if (frame == null) {
        log.debug("connection from {} ended before its hello", from);
        return;
      } else if (frame instanceof InboundFrame.Error error) {
        refusal = "broke the frame format: " + error.reason();
      } else {
        refusal = "sent a frame before its hello";
      }
      log.warn("refused a connection from {}: {}", from, refusal);
    } catch (IOException e) {
      if (late.get()) {
        log.warn("closing a connection from {}: {}", from, handshakeTimeoutReason());
      } else if (e instanceof SSLException) {
        log.warn(
            "refused a connection from {}: TLS handshake failed: {}", from, Failures.describe(e));
      } else {
        log.debug("connection from {} failed before its hello: {}", from, Failures.describe(e));
      }
    } finally {
      if (watch != null) {
        watch.cancel(false);
      }
      unverified.remove(raw);
      if (!kept) {
        PeerConnection.closeQuietly(raw);
      }
    }
  }

  /** Says this party's hello on a verified connection, then hands it to the peer's slot. */
  private boolean answer(int party, PeerConnection connection, ScheduledFuture<?> watch) {
    try {
      connection.writeNow(FrameEncoder.hello(self));
    } catch (IOException e) {
      release(party, Failures.describe(e));
      return false;
    }
    if (!watch.cancel(false)) {
      release(party, handshakeTimeoutReason());
      return false;
    }
    unverified.remove(
        connection.raw); // before it counts as connected: stopListening closes the rest
    attach(party, connection);
    return true;
  }

  /** Closes {@code raw} when the handshakes are not done within the handshake timeout. */
  private ScheduledFuture<?> watch(Socket raw, AtomicBoolean late) throws IOException {
    try {
      return watchdog.schedule(
          () -> {
            late.set(true);
            PeerConnection.closeQuietly(raw);
          },
          handshakeMillis(),
          TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      throw new IOException("the network is closed");
    }
  }

  /** Wraps a connected socket, with TLS when configured, and runs the TLS handshake. */
  private PeerConnection open(Socket raw, InetSocketAddress dialed, boolean client)
      throws IOException {
    raw.setTcpNoDelay(true);
    raw.setSoTimeout((int) handshakeMillis());
    if (tls == null) {
      return new PeerConnection(raw, raw, options.maxFrameBytes());
    }
    SSLSocket ssl =
        (SSLSocket)
            tls.getSocketFactory()
                .createSocket(
                    raw,
                    dialed == null ? null : dialed.getHostString(),
                    dialed == null ? raw.getPort() : dialed.getPort(),
                    true);
    SSLParameters parameters = ssl.getSSLParameters();
    parameters.setProtocols(new String[] {"TLSv1.3"});
    parameters.setCipherSuites(CIPHER_SUITES);
    parameters.setUseCipherSuitesOrder(true);
    ssl.setSSLParameters(parameters);
    ssl.setUseClientMode(client);
    if (!client) {
      ssl.setNeedClientAuth(true);
    }
    ssl.startHandshake();
    return new PeerConnection(raw, ssl, options.maxFrameBytes());
  }

  private static X509Certificate peerCertificate(PeerConnection connection) {
    if (!(connection.socket instanceof SSLSocket ssl)) {
      return null;
    }
    try {
      return (X509Certificate) ssl.getSession().getPeerCertificates()[0];
    } catch (SSLPeerUnverifiedException e) {
      throw new IllegalStateException("TLS session without a peer certificate", e);
    }
  }

  // Registering peers, under this object's lock.

  /**
   * Reserves the slot of the party a hello claims; {@code dialed} is the party dialed, or -1 on an
   * accepted connection (from {@code from}). Returns why the connection is refused, or null.
   */
  private synchronized String register(
      int claimed, int dialed, X509Certificate certificate, SocketAddress from) {
    String refusal = check(claimed, dialed, certificate);
    if (refusal != null && dialed < 0 && claimed >= 0 && claimed < peers.length) {
      // Kept for the "did not connect" error: an operator sees why the party was turned away.
      lastError[claimed] = "refused " + from + ": " + refusal;
    }
    return refusal;
  }

  private String check(int claimed, int dialed, X509Certificate certificate) {
    if (claimed < 0 || claimed >= peers.length || claimed == self) {
      return "claims party id " + claimed + ", not a peer of " + PartyId.of(self);
    }
    PartyId party = PartyId.of(claimed);
    if (dialed >= 0 && claimed != dialed) {
      return "answered as " + party + " at the address of " + name(dialed);
    }
    if (dialed < 0 && claimed > self) {
      return party + " dialed " + PartyId.of(self) + ", but only a lower id dials a higher one";
    }
    if (certificate != null && Certificates.partyOf(certificate) != claimed) {
      return "claims to be "
          + party
          + " but its certificate is for CN="
          + Certificates.commonNameOf(certificate);
    }
    if (peers[claimed] != null || reserved[claimed]) {
      return party + " is already connected";
    }
    reserved[claimed] = true;
    return null;
  }

  private synchronized void release(int party, String error) {
    reserved[party] = false;
    lastError[party] = error;
  }

  private synchronized void attach(int party, PeerConnection connection) {
    reserved[party] = false;
    if (closed) {
      PeerConnection.closeQuietly(connection.raw); // connect gave up meanwhile
      return;
    }
    peers[party] = connection;
    log.debug("{} connected to {}", PartyId.of(self), name(party));
    notifyAll();
  }

  long handshakeMillis() {
    return options.handshakeTimeout().toMillis();
  }

  private long handshakeNanos() {
    return options.handshakeTimeout().toNanos();
  }

  private String handshakeTimeoutReason() {
    return "did not finish the TLS and id handshakes within " + handshakeMillis() + " ms";
  }

  /**
   * Once every peer is connected a newcomer can only be refused, so the listener and the threads
   * that verify connections stop; the connections stay.
   */
  private void stopListening() {
    try {
      server.close();
    } catch (IOException e) {
      // not listening either way
    }
    for (Socket socket : unverified) {
      PeerConnection.closeQuietly(socket);
    }
    handshakes.shutdownNow();
    watchdog.shutdownNow();
    try {
      acceptor.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** True once the listener, every connection and every thread of this network are closed. */
  boolean isReleased() {
    if (!server.isClosed()
        || acceptor.isAlive()
        || !handshakes.isTerminated()
        || !watchdog.isTerminated()) {
      return false;
    }
    synchronized (this) {
      for (PeerConnection peer : peers) {
        if (peer != null && !peer.raw.isClosed()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Closes every connection once the frames still being written have left (waiting at most the
   * receive timeout), then stops every thread.
   */
  @Override
  public void close() {
    close(options.receiveTimeout().toNanos());
  }

  /** Closes after a failure or an abort: waits at most 2 s for frames still being written. */
  void closeAfterFailure() {
    close(LINGER_AFTER_FAILURE_NANOS);
  }

  private void close(long lingerNanos) {
    PeerConnection[] attached;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      attached = peers.clone();
      notifyAll();
    }
    try {
      server.close();
    } catch (IOException e) {
      // closing anyway
    }
    for (Socket socket : unverified) {
      PeerConnection.closeQuietly(socket);
    }
    long deadline = System.nanoTime() + lingerNanos;
    for (PeerConnection peer : attached) {
      if (peer != null) {
        peer.close(Math.max(0, deadline - System.nanoTime()));
      }
    }
    handshakes.shutdownNow();
    watchdog.shutdownNow();
    try {
      acceptor.join(2000);
      handshakes.awaitTermination(2, TimeUnit.SECONDS);
      watchdog.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
