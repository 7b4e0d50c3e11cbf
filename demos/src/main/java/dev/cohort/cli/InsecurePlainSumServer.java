package dev.cohort.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The INSECURE baseline of {@code cohort bench clients}: a plain threaded TCP server, as in the
 * published comparison, that sums one 4-bit value from each participant. No secrecy, no TLS, no
 * authentication: the server sees every value. Each participant connects, sends one byte and waits
 * for the server's one-byte answer; the run ends when the server has every value. {@link
 * #connect(int)} keeps participants connected, and {@link #run(Connected, int[], ExecutorService)}
 * has each send one more byte over its open connection: the baseline of a further session, where
 * nothing is connected anew.
 */
final class InsecurePlainSumServer implements AutoCloseable {

  private final ServerSocket socket;
  private final ExecutorService threads = Executors.newCachedThreadPool(daemons());
  private final AtomicLong sum = new AtomicLong();
  private final AtomicInteger received = new AtomicInteger();
  private volatile CompletableFuture<Long> done;
  private volatile int expected;

  InsecurePlainSumServer() {
    try {
      socket = new ServerSocket(0, 4096, InetAddress.getLoopbackAddress());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on loopback", e);
    }
    threads.execute(this::accept);
  }

  private static java.util.concurrent.ThreadFactory daemons() {
    return r -> {
      Thread t = new Thread(r, "insecure-plain-sum");
      t.setDaemon(true);
      return t;
    };
  }

  private void accept() {
    while (!socket.isClosed()) {
      try {
        Socket s = socket.accept();
        threads.execute(() -> serve(s)); // a thread per participant, as a threaded server does
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Sums every byte the participant sends and answers each, until it closes the connection. */
  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      InputStream in = s.getInputStream();
      OutputStream out = s.getOutputStream();
      for (int v = in.read(); v >= 0; v = in.read()) {
        sum.addAndGet(v);
        out.write(1);
        if (received.incrementAndGet() == expected) {
          done.complete(sum.get());
        }
      }
    } catch (IOException e) {
      CompletableFuture<Long> d = done;
      if (d != null) {
        d.completeExceptionally(e);
      }
    }
  }

  private void start(int n) {
    sum.set(0);
    received.set(0);
    expected = n;
    done = new CompletableFuture<>();
  }

  /**
   * {@code values.length} participants (on {@code pool}) each send their value; returns the sum the
   * server computed.
   */
  long run(int[] values, ExecutorService pool) {
    start(values.length);
    InetSocketAddress at = (InetSocketAddress) socket.getLocalSocketAddress();
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    for (int v : values) {
      sent.add(CompletableFuture.runAsync(() -> participate(at, v), pool));
    }
    CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0])).join();
    return done.join();
  }

  private static void participate(InetSocketAddress at, int value) {
    try (Socket s = new Socket(at.getAddress(), at.getPort())) {
      s.setTcpNoDelay(true);
      exchange(s, value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Participants that stay connected, one socket each (and a server thread each). */
  static final class Connected implements AutoCloseable {
    private final List<Socket> sockets = new ArrayList<>();

    int size() {
      return sockets.size();
    }

    @Override
    public void close() {
      for (Socket s : sockets) {
        try {
          s.close();
        } catch (IOException e) {
          // closing: nothing left to do
        }
      }
    }
  }

  /** Connects {@code n} participants that stay connected. */
  Connected connect(int n) {
    InetSocketAddress at = (InetSocketAddress) socket.getLocalSocketAddress();
    Connected c = new Connected();
    try {
      for (int j = 0; j < n; j++) {
        Socket s = new Socket(at.getAddress(), at.getPort());
        s.setTcpNoDelay(true);
        c.sockets.add(s);
      }
    } catch (IOException e) {
      c.close();
      throw new UncheckedIOException("cannot connect to the plain sum server", e);
    }
    return c;
  }

  /**
   * Connected participant {@code j} (on {@code pool}) sends {@code values[j]} over its open
   * connection and waits for the answer; returns the sum the server computed.
   */
  long run(Connected participants, int[] values, ExecutorService pool) {
    if (values.length != participants.size()) {
      throw new IllegalArgumentException(
          values.length + " values for " + participants.size() + " participants");
    }
    start(values.length);
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    for (int j = 0; j < values.length; j++) {
      Socket s = participants.sockets.get(j);
      int v = values[j];
      sent.add(CompletableFuture.runAsync(() -> exchange(s, v), pool));
    }
    CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0])).join();
    return done.join();
  }

  private static void exchange(Socket s, int value) {
    try {
      s.getOutputStream().write(value);
      if (s.getInputStream().read() != 1) {
        throw new IOException("the plain sum server closed without an answer");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // closing: nothing left to do
    }
    threads.shutdownNow();
  }
}
