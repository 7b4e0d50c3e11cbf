package dev.cohort.socket;

import dev.cohort.transport.Failures;
import dev.cohort.transport.InboundFrame;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * This party's end of one connection (TLS or plain) to one peer: the frame reader, and the writes.
 * Invariant: frames leave in the order they were sent, whole, one at a time.
 *
 * <p>A frame is written on the party thread when it cannot block: when it and the frame before it
 * are both at most {@link #DIRECT_BYTES} and no earlier frame is still being written. A peer has
 * always read every frame up to the one before last (it answered it), so what can be unread is at
 * most two small frames, far below any TCP window. Every other frame goes to a writer thread of
 * this connection (started on the first large frame), so two parties writing MiB frames to each
 * other while neither reads cannot deadlock, and a frozen peer blocks a writer thread, never the
 * party thread: the party thread goes on to read and fails after the receive timeout.
 */
final class PeerConnection {

  /** Frames up to this many bytes go out from the party thread. */
  static final int DIRECT_BYTES = 8 * 1024;

  final Socket raw; // the TCP socket, under TLS when there is TLS
  final Socket socket; // what frames are written to and read from
  final FrameReader reader;
  private final OutputStream out;
  private final byte[] small = new byte[DIRECT_BYTES];
  private byte[] large = new byte[0];
  private boolean previousSmall = true;
  private ExecutorService writer;
  private Future<?> pending;
  private volatile String writeFailure;
  private volatile boolean failed; // frames still being written to it will never be read

  PeerConnection(Socket raw, Socket socket, int maxFrameBytes) throws IOException {
    this.raw = raw;
    this.socket = socket;
    this.reader = new FrameReader(raw, socket.getInputStream(), maxFrameBytes);
    this.out = socket.getOutputStream();
  }

  /** Writes a frame built elsewhere (a hello) from this thread; only before any other frame. */
  void writeNow(byte[] frame) throws IOException {
    out.write(frame);
    out.flush();
  }

  /**
   * Sends one data frame; returns its bytes. A failed write is kept for {@link #writeFailure}: what
   * the peer sent before it went (an abort, say) is still to be read and says more.
   */
  int sendData(int round, long[] words, int length, String writerName) {
    int bytes = (int) FrameEncoder.dataBytes(length);
    boolean direct = bytes <= DIRECT_BYTES && previousSmall && idle();
    previousSmall = bytes <= DIRECT_BYTES;
    if (direct) {
      FrameEncoder.data(small, round, words, length);
      write(small, bytes);
    } else {
      // The writer may still own the array of the frame before: only then is a fresh one needed.
      byte[] frame =
          idle() && large.length >= bytes ? large : new byte[Math.max(bytes, DIRECT_BYTES)];
      large = frame;
      FrameEncoder.data(frame, round, words, length);
      queue(frame, bytes, writerName);
    }
    return bytes;
  }

  /** Sends an abort frame, after anything still being written; never blocks. */
  void sendAbort(int round, String reason, String writerName) {
    byte[] frame = FrameEncoder.abort(round, reason);
    if (previousSmall && idle()) {
      write(frame, frame.length);
    } else {
      queue(frame, frame.length, writerName);
    }
  }

  private boolean idle() {
    return pending == null || pending.isDone();
  }

  private void write(byte[] frame, int bytes) {
    if (writeFailure != null) {
      return;
    }
    try {
      out.write(frame, 0, bytes);
      out.flush();
    } catch (IOException e) {
      writeFailure = Failures.describe(e);
    }
  }

  private void queue(byte[] frame, int bytes, String writerName) {
    if (writer == null) {
      writer =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, writerName);
                t.setDaemon(true);
                return t;
              });
    }
    pending = writer.submit(() -> write(frame, bytes));
  }

  /**
   * The peer failed (timed out, broke the format, aborted): {@link #close} will not wait for it.
   */
  void failed() {
    failed = true;
  }

  /** Why a write to this peer failed, or null. */
  String writeFailure() {
    return writeFailure;
  }

  InboundFrame read(long deadline) throws IOException {
    reader.deadline(deadline);
    return reader.read();
  }

  /**
   * Waits up to {@code lingerNanos} for frames still being written (the peer is reading them in its
   * own round), then closes the connection and stops the writer thread.
   */
  void close(long lingerNanos) {
    if (failed) {
      closeQuietly(raw); // first, so a writer stuck in a write to it ends now
    }
    if (writer != null) {
      writer.shutdown();
      try {
        if (!writer.awaitTermination(lingerNanos, TimeUnit.NANOSECONDS)) {
          closeQuietly(raw); // unblocks the writer's write
        }
        writer.shutdownNow();
        writer.awaitTermination(2, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        closeQuietly(raw);
        writer.shutdownNow();
      }
    }
    // Only the TCP socket: a TLS close_notify could block on a peer that reads nothing, and an end
    // of stream without one reads as the end of stream on the JDK's TLS.
    closeQuietly(raw);
  }

  static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // closing anyway; nothing to report to anyone
    }
  }
}
