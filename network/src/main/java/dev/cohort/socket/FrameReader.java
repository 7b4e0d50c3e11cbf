package dev.cohort.socket;

import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.WireFormat;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * Reads one connection's frames (format in {@link WireFormat}) with blocking reads, each bounded by
 * the {@link #deadline}. Invariant: data frames come out with rounds 0, 1, 2, ... and none larger
 * than the limit; heartbeats (which a Netty peer sends when idle) are skipped.
 *
 * <p>Bytes arrive into one reused buffer, as many as the socket has (a small frame and its
 * neighbours in one read); a data frame's payload is copied from it straight into the frame's word
 * array, so a large frame is copied once on its way in, in bulk and (its words being little-endian,
 * {@link WireFormat#WORD_ORDER}) without a byte swap.
 *
 * <p>Memory goes with bytes received, never with a length a peer declares, by the rules of the
 * Netty decoder: nothing longer than a hello before the hello, a large data frame's array grown as
 * its words arrive ({@link WireFormat#grownWords}), and an abort's reason cut at {@link
 * WireFormat#MAX_REASON_BYTES} bytes with the rest skipped.
 *
 * <p>The same rejections as the Netty transport's decoder, with the same words ({@link
 * WireFormat#lengthError}, {@link WireFormat#headerError}): the length is checked as soon as its
 * four bytes are there, the header before any payload is read, and a connection that ends inside a
 * frame lost part of it; a connection that opens with a TLS record is refused with {@link
 * WireFormat#SPEAKS_TLS}. A rejection comes back as an {@link InboundFrame.Error}; the caller then
 * closes the connection and reads no more.
 */
final class FrameReader {

  /** The header fields: big-endian. */
  static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  /** A hello's magic word: big-endian, unlike a data frame's words ({@link WireFormat}). */
  static final VarHandle MAGIC =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private static final int PREFIX = WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES;
  private static final int BUFFER_BYTES = 64 * 1024;

  private final Socket socket; // the plain socket under TLS, whose SO_TIMEOUT bounds every read
  private final InputStream in;
  private final int maxFrameBytes;
  private final byte[] buffer = new byte[BUFFER_BYTES];
  private int wordsRead; // of a data frame cut short
  private int position;
  private int limit;
  private int nextRound;
  private boolean helloSeen; // until then nothing longer than a hello may come
  private long deadline;
  private int timeoutSet = -1;

  FrameReader(Socket socket, InputStream in, int maxFrameBytes) {
    this.socket = socket;
    this.in = in;
    this.maxFrameBytes = maxFrameBytes;
  }

  /** The {@link System#nanoTime} by which every read must have returned; later ones time out. */
  void deadline(long nanoTime) {
    deadline = nanoTime;
  }

  /**
   * The next frame (data, hello, abort or the reason the stream broke the format), or null when the
   * connection ended between frames. Throws {@link SocketTimeoutException} past the deadline.
   */
  InboundFrame read() throws IOException {
    while (true) {
      if (!fill(WireFormat.LENGTH_BYTES)) {
        return limit == position ? null : truncated(limit - position);
      }
      int length = (int) INT.get(buffer, position);
      String error =
          !helloSeen && WireFormat.startsWithTls(buffer[position], buffer[position + 1])
              ? WireFormat.SPEAKS_TLS
              : WireFormat.lengthError(length, maxFrameBytes, helloSeen);
      if (error != null) {
        return new InboundFrame.Error(error);
      }
      if (!fill(PREFIX)) {
        return truncated(limit - position);
      }
      int channel = (int) INT.get(buffer, position + 4);
      int round = (int) INT.get(buffer, position + 8);
      int payload = length - WireFormat.HEADER_BYTES;
      error = WireFormat.headerError(channel, round, payload, nextRound);
      if (error != null) {
        return new InboundFrame.Error(error);
      }
      position += PREFIX;
      InboundFrame frame = payload(channel, round, payload);
      if (frame != null) {
        return frame;
      }
    }
  }

  /** Reads the payload of a frame whose header was valid; null for a heartbeat. */
  private InboundFrame payload(int channel, int round, int payload) throws IOException {
    if (channel == WireFormat.DATA) {
      long[] words = readWords(payload / 8);
      if (words == null) {
        return truncated(PREFIX + 8 * wordsRead + (limit - position));
      }
      nextRound++;
      return new InboundFrame.Data(round, words, PREFIX + payload);
    }
    if (channel == WireFormat.HEARTBEAT) {
      return null;
    }
    byte[] bytes = new byte[Math.min(payload, WireFormat.MAX_REASON_BYTES)];
    int filled = 0;
    while (filled < payload) {
      if (!fill(1)) {
        return truncated(PREFIX + filled);
      }
      int n = Math.min(payload - filled, limit - position);
      // bytes past the kept part of a long reason are skipped
      int kept = Math.max(0, Math.min(n, bytes.length - filled));
      System.arraycopy(buffer, position, bytes, Math.min(filled, bytes.length), kept);
      position += n;
      filled += n;
    }
    if (channel == WireFormat.HELLO) {
      if ((long) MAGIC.get(bytes, 0) != WireFormat.MAGIC) {
        return new InboundFrame.Error(WireFormat.NOT_A_HELLO);
      }
      helloSeen = true;
      return new InboundFrame.Hello(round);
    }
    return new InboundFrame.Abort(round, WireFormat.reason(bytes, bytes.length, payload));
  }

  /**
   * A data frame's {@code total} words from the stream, in an array grown as they arrive; null when
   * the connection ended first, with the words that came in {@link #wordsRead}.
   */
  private long[] readWords(int total) throws IOException {
    long[] w = new long[WireFormat.initialWords(total)];
    int filled = 0;
    while (filled < total) {
      if (!fill(8)) {
        wordsRead = filled;
        return null;
      }
      int n = Math.min(total - filled, (limit - position) >>> 3);
      if (filled + n > w.length) {
        w = Arrays.copyOf(w, WireFormat.grownWords(filled + n, total));
      }
      WireFormat.getWords(ByteBuffer.wrap(buffer, position, 8 * n), w, filled, n);
      position += 8 * n;
      filled += n;
    }
    return w;
  }

  private InboundFrame.Error truncated(int arrived) {
    limit = position; // nothing after a broken frame is read
    return new InboundFrame.Error(
        "connection closed inside a frame (" + arrived + " bytes of it arrived)");
  }

  /**
   * Reads until at least {@code bytes} (at most the buffer) are buffered after the position; false
   * when the connection ends first.
   */
  private boolean fill(int bytes) throws IOException {
    if (limit - position >= bytes) {
      return true;
    }
    if (buffer.length - position < bytes) {
      System.arraycopy(buffer, position, buffer, 0, limit - position);
      limit -= position;
      position = 0;
    }
    while (limit - position < bytes) {
      timeout();
      int n = in.read(buffer, limit, buffer.length - limit);
      if (n < 0) {
        return false;
      }
      limit += n;
    }
    return true;
  }

  /** Bounds the next read by what is left until the deadline. */
  private void timeout() throws IOException {
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      throw new SocketTimeoutException("deadline passed");
    }
    int millis = (int) Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(left) + 1);
    if (millis != timeoutSet) { // a syscall-free field write, but skipped when unchanged
      socket.setSoTimeout(millis);
      timeoutSet = millis;
    }
  }
}
