package dev.cohort.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The INSECURE floor of a further session's messages in {@code cohort bench clients}: the same
 * messages a further session of Cohort's input clients moves, in plain TCP with no TLS, no secrecy,
 * no validation and nothing computed. {@code n} connected participants each send one message of
 * {@link #MESSAGE} bytes to each of {@link #SERVERS} servers, and server 0 answers each with one
 * message (as server 0's outcome announces the next session). Servers and participants use
 * non-blocking sockets, one selector thread per server and {@link #PARTICIPANT_THREADS} threads for
 * all participants: about the least Java can do per message. A round ends when every server has
 * every message and every participant its answer.
 */
final class InsecureMessageFloor implements AutoCloseable {

  static final int SERVERS = 3;
  static final int MESSAGE = 48; // about a submission of one 4-bit value
  static final int PARTICIPANT_THREADS = 2;
  private static final long TIMEOUT_SECONDS = 60;

  private final int n;
  private final List<ServerSocketChannel> listening = new ArrayList<>();
  private final List<SocketChannel> accepted = new ArrayList<>();
  private final List<Selector> serverSelectors = new ArrayList<>();
  private final List<Thread> serverThreads = new ArrayList<>();
  private final SocketChannel[][] participants; // [participant][server]
  private final Selector[] participantSelectors = new Selector[PARTICIPANT_THREADS];
  private final Semaphore arrived = new Semaphore(0); // one permit per message a server read

  /** Connects {@code n} participants to each of the servers, all on loopback. */
  InsecureMessageFloor(int n) {
    this.n = n;
    this.participants = new SocketChannel[n][SERVERS];
    try {
      for (int s = 0; s < SERVERS; s++) {
        ServerSocketChannel server = ServerSocketChannel.open();
        listening.add(server);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), n + 16);
        Selector selector = Selector.open();
        serverSelectors.add(selector);
        for (int j = 0; j < n; j++) {
          participants[j][s] = SocketChannel.open(server.getLocalAddress());
          SocketChannel a = server.accept();
          accepted.add(a);
          a.setOption(StandardSocketOptions.TCP_NODELAY, true);
          a.configureBlocking(false);
          a.register(selector, SelectionKey.OP_READ);
        }
      }
      for (int k = 0; k < PARTICIPANT_THREADS; k++) {
        participantSelectors[k] = Selector.open();
      }
      for (int j = 0; j < n; j++) {
        for (int s = 0; s < SERVERS; s++) {
          participants[j][s].setOption(StandardSocketOptions.TCP_NODELAY, true);
          participants[j][s].configureBlocking(false);
        }
        participants[j][0].register(
            participantSelectors[j % PARTICIPANT_THREADS], SelectionKey.OP_READ);
      }
    } catch (IOException e) {
      close();
      throw new UncheckedIOException("cannot connect the plain message floor on loopback", e);
    }
    for (int s = 0; s < SERVERS; s++) {
      int server = s;
      Thread t = new Thread(() -> serve(server), "insecure-message-floor-" + s);
      t.setDaemon(true);
      t.start();
      serverThreads.add(t);
    }
  }

  /** Reads whole messages and counts them; server 0 answers each. */
  private void serve(int server) {
    Selector selector = serverSelectors.get(server);
    ByteBuffer in = ByteBuffer.allocateDirect(MESSAGE);
    ByteBuffer out = ByteBuffer.allocateDirect(MESSAGE);
    try {
      while (selector.isOpen()) {
        selector.select();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          SocketChannel c = (SocketChannel) key.channel();
          if (!readMessage(c, in)) {
            key.cancel(); // the participant closed
            continue;
          }
          if (server == 0) {
            out.clear();
            writeFully(c, out);
          }
          arrived.release();
        }
      }
    } catch (IOException | ClosedSelectorException e) {
      // closed: the floor is done
    }
  }

  /** Reads one whole message (it may arrive in pieces); false if the connection ended first. */
  private static boolean readMessage(SocketChannel c, ByteBuffer in) throws IOException {
    in.clear();
    while (in.hasRemaining()) {
      if (c.read(in) < 0) {
        return false;
      }
    }
    return true;
  }

  private static void writeFully(SocketChannel c, ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      c.write(b);
    }
  }

  /**
   * One round: every participant sends its message to every server, then waits for server 0's
   * answer. Returns the wall time in milliseconds.
   */
  double round(ExecutorService pool) {
    long t0 = System.nanoTime();
    List<CompletableFuture<Void>> threads = new ArrayList<>();
    for (int k = 0; k < PARTICIPANT_THREADS; k++) {
      int slice = k;
      threads.add(CompletableFuture.runAsync(() -> participate(slice), pool));
    }
    try {
      CompletableFuture.allOf(threads.toArray(new CompletableFuture<?>[0]))
          .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      if (!arrived.tryAcquire(n * SERVERS, TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the plain message floor lost messages");
      }
    } catch (Exception e) {
      throw new IllegalStateException("the plain message floor failed: " + e, e);
    }
    return (System.nanoTime() - t0) / 1e6;
  }

  /** Participants j ≡ slice (mod threads): send to every server, then read server 0's answers. */
  private void participate(int slice) {
    ByteBuffer out = ByteBuffer.allocateDirect(MESSAGE);
    ByteBuffer in = ByteBuffer.allocateDirect(MESSAGE);
    int mine = 0;
    try {
      for (int j = slice; j < n; j += PARTICIPANT_THREADS) {
        mine++;
        for (int s = 0; s < SERVERS; s++) {
          out.clear();
          writeFully(participants[j][s], out);
        }
      }
      Selector selector = participantSelectors[slice];
      int answers = 0;
      while (answers < mine) {
        selector.select();
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (!readMessage((SocketChannel) key.channel(), in)) {
            throw new IOException("a plain server closed");
          }
          answers++;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    for (Selector s : participantSelectors) {
      closeQuietly(s);
    }
    for (Selector s : serverSelectors) {
      closeQuietly(s);
    }
    for (SocketChannel[] row : participants) {
      for (SocketChannel c : row) {
        closeQuietly(c);
      }
    }
    for (SocketChannel c : accepted) {
      closeQuietly(c);
    }
    for (ServerSocketChannel s : listening) {
      closeQuietly(s);
    }
  }

  private static void closeQuietly(java.io.Closeable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (IOException e) {
      // closing: nothing left to do
    }
  }
}
