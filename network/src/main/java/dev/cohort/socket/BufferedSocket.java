package dev.cohort.socket;

import dev.cohort.transport.ProtocolMismatch;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/**
 * A TCP socket whose input stream is buffered, to put under the JDK's TLS. The JDK's {@code
 * SSLSocket} reads every record in two reads, its 5-byte header and then its body; from this stream
 * one system call brings in the record, and often the next ones, and the second read is a copy.
 * Only for TLS: the frame reader of a plain connection reads in large chunks itself.
 *
 * <p>The buffer keeps the connection's first bytes (a mark at its start, dropped once the buffer
 * first fills up), so that the handshake can look at them: before TLS on an accepted connection
 * ({@link #peek}), after a failed TLS handshake on a dialed one ({@link #firstBytes}), to recognise
 * a peer that speaks plain TCP ({@link ProtocolMismatch}). Nothing is added to a read.
 */
final class BufferedSocket extends Socket {

  private static final int BUFFER_BYTES = 64 * 1024;

  private Head in;

  @Override
  public synchronized InputStream getInputStream() throws IOException {
    if (in == null) {
      in = new Head(super.getInputStream());
    }
    return in;
  }

  /**
   * Reads the first bytes of the connection, up to {@link ProtocolMismatch#PEEK_BYTES} (only the
   * first one when it starts a TLS record), and puts them back for the TLS handshake to read.
   */
  byte[] peek() throws IOException {
    Head head = (Head) getInputStream();
    byte[] bytes = new byte[ProtocolMismatch.PEEK_BYTES];
    int n = head.read(bytes, 0, 1);
    while (n > 0 && n < bytes.length && !ProtocolMismatch.isTlsContentType(bytes[0])) {
      int more = head.read(bytes, n, bytes.length - n);
      if (more < 0) {
        break;
      }
      n += more;
    }
    head.reset();
    return Arrays.copyOf(bytes, Math.max(n, 0));
  }

  /**
   * The first bytes that arrived on this connection (up to {@link ProtocolMismatch#PEEK_BYTES}),
   * also after TLS closed the stream; empty once they are no longer kept.
   */
  byte[] firstBytes() {
    Head head = in;
    return head == null ? new byte[0] : head.first();
  }

  /** A buffered stream marked at its start until its buffer first fills up. */
  private static final class Head extends BufferedInputStream {
    private byte[] closedWith; // the first bytes, kept when TLS closes the stream

    Head(InputStream in) {
      super(in, BUFFER_BYTES);
      mark(ProtocolMismatch.PEEK_BYTES);
    }

    synchronized byte[] first() {
      if (closedWith != null) {
        return closedWith;
      }
      byte[] b = buf;
      return b == null || markpos != 0
          ? new byte[0]
          : Arrays.copyOf(b, Math.min(count, ProtocolMismatch.PEEK_BYTES));
    }

    @Override
    public void close() throws IOException {
      synchronized (this) {
        closedWith = first();
      }
      super.close();
    }
  }

  /** A listener whose accepted connections are {@link BufferedSocket}s. */
  static ServerSocket server() throws IOException {
    return new ServerSocket() {
      @Override
      public Socket accept() throws IOException {
        Socket socket = new BufferedSocket();
        implAccept(socket);
        return socket;
      }
    };
  }
}
