package dev.cohort.socket;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * A TCP socket whose input stream is buffered, to put under the JDK's TLS. The JDK's {@code
 * SSLSocket} reads every record in two reads, its 5-byte header and then its body; from this stream
 * one system call brings in the record, and often the next ones, and the second read is a copy.
 * Only for TLS: the frame reader of a plain connection reads in large chunks itself.
 */
final class BufferedSocket extends Socket {

  private static final int BUFFER_BYTES = 64 * 1024;

  private InputStream in;

  @Override
  public synchronized InputStream getInputStream() throws IOException {
    if (in == null) {
      in = new BufferedInputStream(super.getInputStream(), BUFFER_BYTES);
    }
    return in;
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
