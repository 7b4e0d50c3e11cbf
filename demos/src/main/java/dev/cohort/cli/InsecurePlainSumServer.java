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
 * for the server's one-byte answer; the run ends when the server has every value.
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

  private void serve(Socket s) {
    try (s) {
      s.setTcpNoDelay(true);
      int v = s.getInputStream().read();
      if (v < 0) {
        return;
      }
      sum.addAndGet(v);
      s.getOutputStream().write(1);
      if (received.incrementAndGet() == expected) {
        done.complete(sum.get());
      }
    } catch (IOException e) {
      done.completeExceptionally(e);
    }
  }

  /**
   * {@code values.length} participants (on {@code pool}) each send their value; returns the sum the
   * server computed.
   */
  long run(int[] values, ExecutorService pool) {
    sum.set(0);
    received.set(0);
    expected = values.length;
    done = new CompletableFuture<>();
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
      OutputStream out = s.getOutputStream();
      out.write(value);
      out.flush();
      InputStream in = s.getInputStream();
      if (in.read() != 1) {
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
