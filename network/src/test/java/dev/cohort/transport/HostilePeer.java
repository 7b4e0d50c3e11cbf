package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A corrupt party's end of a plain TCP connection to an honest one, writing raw bytes of the wire
 * format ({@link WireFormat}) so it can declare what it never sends.
 */
public final class HostilePeer implements AutoCloseable {

  private final Socket socket;
  private final OutputStream out;
  private final DataInputStream in;
  private final ExecutorService writer = Executors.newSingleThreadExecutor();

  public HostilePeer(InetSocketAddress honest) throws IOException {
    socket = new Socket(honest.getAddress(), honest.getPort());
    socket.setSoTimeout(20_000);
    out = socket.getOutputStream();
    in = new DataInputStream(socket.getInputStream());
  }

  /** The 12 bytes that open a frame: a length field claiming {@code length}, channel, round. */
  public static byte[] prefix(int length, int channel, int round) {
    return ByteBuffer.allocate(12).putInt(length).putInt(channel).putInt(round).array();
  }

  /** A whole data frame for {@code round} whose {@code words} words all hold the round number. */
  public static byte[] dataFrame(int round, int words) {
    ByteBuffer frame = ByteBuffer.allocate((int) WireFormat.dataFrameBytes(words));
    frame.put(prefix(WireFormat.HEADER_BYTES + 8 * words, WireFormat.DATA, round));
    frame.order(ByteOrder.LITTLE_ENDIAN); // the words; the header is big-endian
    for (int i = 0; i < words; i++) {
      frame.putLong(round);
    }
    return frame.array();
  }

  public void write(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  /** Says hello as {@code party} and reads the honest party's hello in return. */
  public void hello(int party) throws IOException {
    write(
        ByteBuffer.allocate(WireFormat.LENGTH_BYTES + WireFormat.HELLO_LENGTH)
            .putInt(WireFormat.HELLO_LENGTH)
            .putInt(WireFormat.HELLO)
            .putInt(party)
            .putLong(WireFormat.MAGIC)
            .array());
    assertEquals(WireFormat.HELLO_LENGTH, in.readInt());
    assertEquals(WireFormat.HELLO, in.readInt());
    in.readInt(); // the honest party's id
    assertEquals(WireFormat.MAGIC, in.readLong());
  }

  /** Sends no more (a FIN), so the honest party reads to the end of what was sent. */
  public void finishSending() throws IOException {
    socket.shutdownOutput();
  }

  /** Reads and drops everything until the honest party closes the connection. */
  public void awaitClosedByPeer() throws IOException {
    try {
      while (in.read(new byte[4096]) >= 0) {
        // what the honest party sent meanwhile: not looked at
      }
    } catch (SocketException reset) {
      // closed with a reset: closed all the same
    }
  }

  @Override
  public void close() throws IOException {
    writer.shutdownNow();
    socket.close();
  }

  /**
   * Writes whole data frames for rounds 0 to {@code rounds - 1}, of {@code words} words each, on a
   * thread of its own (stopped by {@link #close}): a peer running rounds ahead, blocked once the
   * TCP buffers are full.
   */
  public Future<?> flood(int rounds, int words) {
    return writer.submit(
        () -> {
          for (int r = 0; r < rounds; r++) {
            write(dataFrame(r, words));
          }
          return null;
        });
  }
}
