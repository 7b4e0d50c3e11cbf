package dev.cohort.socket;

import dev.cohort.api.NetworkException;
import dev.cohort.api.PartyId;
import dev.cohort.transport.Failures;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.PeerAdmission;
import dev.cohort.transport.RefusalLog;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.WireFormat;
import dev.cohort.transport.tls.TlsProvider;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One party's endpoint of the full mesh on blocking JDK sockets: it listens from {@link #bind} on,
 * and {@link #connect} dials the peers and returns the {@link SocketTransport} once every peer has
 * proved its id. The connection rules ({@link PeerAdmission}) and the wire format ({@link
 * WireFormat}) are those of every transport, so a socket party and a Netty party can be peers.
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
 * closes connections that miss the handshake timeout, and one dials each higher peer. The jobs are
 * split: {@link Acceptor} listens and verifies, {@link Dialer} dials, {@link Handshake} runs TLS
 * and the hellos, {@link Watchdog} enforces the handshake timeout and {@link PeerSlots} admits
 * peers; this class starts and stops them. At most {@link #maxVerifying} accepted connections (the
 * parties plus 8) are verified at once; while that many are, a newcomer is closed at once with a
 * log line, so idle connections cost at most that many threads. An honest dialer turned away dials
 * again with its backoff: a stranger that holds every slot delays it until the stranger's
 * connections reach the handshake timeout, but cannot exhaust this party's threads. Once the mesh
 * is complete a newcomer could only be refused, so these stop and the party no longer listens; the
 * transport then adds a writer thread per peer on the first large frame, stopped by {@link #close}.
 * There are no heartbeats: the idle timeout of the options is not used, and a frozen peer that
 * keeps its connection open is caught by the receive timeout of a round.
 *
 * <p>A peer that speaks the other protocol (TLS where this party runs in plaintext, or the reverse:
 * {@link dev.cohort.transport.ProtocolMismatch}) is recognised by its first bytes ({@link
 * Handshake}, {@link FrameReader}); a dialed one ends {@link #connect} at once naming it and the
 * setting, an accepted one only leaves the reason for the "did not connect" error, since a stranger
 * could send the same bytes. Refusals are logged through a {@link RefusalLog}. {@link #connect}
 * refuses an address list in which two parties share a host and port.
 */
public final class SocketNetwork implements TransportNetwork {

  private static final Logger log = LoggerFactory.getLogger(SocketNetwork.class);
  private static final long LINGER_AFTER_FAILURE_NANOS = TimeUnit.SECONDS.toNanos(2);

  /** The name of every thread of this transport starts with this. */
  static final String THREAD_PREFIX = "cohort-socket-";

  private final int self;
  private final TransportOptions options;
  private final PeerAdmission admission;
  private final Handshake handshake;
  private final ServerSocket server;
  private final Thread acceptor;
  private final ExecutorService handshakes; // verifies accepted connections, dials higher peers
  private final Watchdog watchdog; // enforces the handshake timeout
  private final Set<Socket> unverified = ConcurrentHashMap.newKeySet();
  private final PeerSlots slots;
  private final Dialer dialer;
  private final RefusalLog refusals = new RefusalLog(log);
  private boolean connecting;

  private SocketNetwork(int self, int parties, TransportOptions options) throws IOException {
    this.admission = new PeerAdmission(self, parties);
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
    admission.checkIdentity(options);
    this.self = self;
    this.options = options;
    SSLContext tls = options.tls() == null ? null : options.tls().jdkContext();
    this.handshake = new Handshake(self, tls, options.maxFrameBytes(), options.handshakeTimeout());
    this.server = tls == null ? new ServerSocket() : BufferedSocket.server();
    this.slots = new PeerSlots(self, parties, admission);
    String me = PartyId.of(self).toString();
    this.handshakes = Executors.newCachedThreadPool(daemons(THREAD_PREFIX + "handshake-" + me));
    this.watchdog =
        new Watchdog(THREAD_PREFIX + "timer-" + me, options.handshakeTimeout().toMillis());
    this.dialer = new Dialer(slots, handshake, watchdog, unverified);
    Acceptor accepting =
        new Acceptor(self, server, slots, handshake, watchdog, handshakes, unverified, refusals);
    this.acceptor = daemons(THREAD_PREFIX + "accept-" + me).newThread(accepting);
  }

  /**
   * Accepted connections verified at once: every lower party dialing at the same time, with room
   * for attempts that overlap a retry.
   */
  static int maxVerifying(int parties) {
    return parties + 8;
  }

  /** Daemon threads named {@code name}, then {@code name-1}, {@code name-2}, ... */
  static ThreadFactory daemons(String name) {
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
   * transport cannot honour (link emulation, the BoringSSL provider). Throws an {@link
   * java.io.UncheckedIOException} naming the address and the cause when it cannot listen there (the
   * port taken, for instance by this party started twice, or an address not of this host), with the
   * {@code java.net.BindException} as its cause ({@link Failures#cannotListen}).
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
      throw Failures.cannotListen(self, listen, e);
    }
    network.acceptor.start();
    log.debug("{} listening on {}", PartyId.of(self), network.localAddress());
    return network;
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) server.getLocalSocketAddress();
  }

  @Override
  public int myId() {
    return self;
  }

  @Override
  public int parties() {
    return slots.parties();
  }

  /**
   * Connects to every peer ({@code addresses} in party order; this party's entry is not used) and
   * returns the transport. Throws {@link NetworkException} naming the first peer missing after the
   * connect timeout, or a peer that failed to prove its id; the network is closed then.
   */
  @Override
  public SocketTransport connect(List<InetSocketAddress> addresses) {
    boolean again = connecting;
    connecting = true;
    admission.checkConnect(again, addresses);
    slots.addresses(addresses.toArray(new InetSocketAddress[0]));
    long timeoutMillis = options.connectTimeout().toMillis();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    PeerConnection[] connected;
    try {
      for (int p = self + 1; p < slots.parties(); p++) {
        int peer = p;
        handshakes.execute(() -> dialer.dialUntilConnected(peer, deadline));
      }
      connected = slots.awaitAll(deadline, timeoutMillis);
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
        slots.parties() - 1,
        handshake.isTls() ? "TLS 1.3 by JDK sockets" : "plain TCP, INSECURE");
    String[] names = new String[slots.parties()];
    for (int p = 0; p < names.length; p++) {
      names[p] = slots.name(p);
    }
    return new SocketTransport(this, connected, names, options);
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
    return slots.allClosed();
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
    PeerConnection[] attached = slots.close();
    if (attached == null) {
      return;
    }
    refusals.flush();
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
      watchdog.awaitTermination();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
