package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.transport.TestKeys;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.WireFormat;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Garbage on a real socket (fixed seeds; {@code java.util.Random} is fine for test noise): the
 * party closes the connection, the computation fails with a clear error naming the peer, and no
 * length field makes it allocate what the peer never sent. Runs under paranoid leak detection.
 */
@ExtendWith(LeakCheck.class)
class RandomBytesTest {

  private static final int GARBAGE_BYTES = 1 << 16;

  @TempDir static Path keyDirectory;
  private static TestKeys keys;

  @BeforeAll
  static void generateKeys() {
    keys = TestKeys.generate(keyDirectory, 2);
  }

  private static byte[] garbage(long seed) {
    byte[] bytes = new byte[GARBAGE_BYTES];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  /** Reads until the party closes the connection; returns the bytes it sent before. */
  private static int readUntilClosed(Socket socket) throws IOException {
    socket.setSoTimeout(10_000);
    InputStream in = socket.getInputStream();
    int total = 0;
    try {
      for (int n; (n = in.read(new byte[4096])) >= 0; ) {
        total += n;
      }
    } catch (SocketException reset) {
      // a reset closes it just the same
    }
    return total;
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 2026})
  void exchange_peerSendsRandomBytesAfterItsHello_failsNamingPeerAndClosing(long seed)
      throws Exception {
    NettyNetwork party1 =
        NettyNetwork.bind(
            1,
            2,
            new InetSocketAddress("127.0.0.1", 0),
            TransportOptions.plaintextInsecure().withReceiveTimeout(Duration.ofSeconds(10)));
    try (Socket socket = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.writeInt(16);
      out.writeInt(WireFormat.HELLO);
      out.writeInt(0);
      out.writeLong(WireFormat.MAGIC);
      out.write(garbage(seed));
      out.flush();
      socket.shutdownOutput();
      try (NettyTransport transport =
          party1.connect(List.of(new InetSocketAddress("127.0.0.1", 9), party1.localAddress()))) {
        NetworkException e =
            assertThrows(
                NetworkException.class, () -> transport.exchange(new long[2][1], new int[2]));
        assertTrue(
            e.getMessage().startsWith("P0 (127.0.0.1:9) broke the frame format: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("; connection closed"), e.getMessage());
        // Its hello (20 bytes), and its empty round-0 frame (12) when that left before the
        // garbage was read: the connection closes on the garbage either way.
        int read = readUntilClosed(socket);
        assertTrue(read == 20 || read == 32, "P1 answered its hello, then closed: " + read);
      }
    }
    assertTrue(party1.isReleased());
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 2026})
  void accept_randomBytesInsteadOfHello_isClosedWithoutAnAnswer(long seed) throws Exception {
    try (NettyNetwork party1 =
            NettyNetwork.bind(
                1, 2, new InetSocketAddress("127.0.0.1", 0), TransportOptions.plaintextInsecure());
        Socket socket = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      socket.getOutputStream().write(garbage(seed));
      socket.getOutputStream().flush();
      assertEquals(0, readUntilClosed(socket), "P1 closed without saying who it is");
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 42, 2026})
  void accept_randomBytesInsteadOfTls_isClosed(long seed) throws Exception {
    try (NettyNetwork party1 =
            NettyNetwork.bind(1, 2, new InetSocketAddress("127.0.0.1", 0), keys.options(1));
        Socket socket = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      socket.getOutputStream().write(garbage(seed));
      socket.getOutputStream().flush();
      readUntilClosed(socket); // at most a TLS alert, then the end
    }
  }
}
