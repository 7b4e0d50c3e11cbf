package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.transport.Allocations;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The socket transport's frame reader against a hostile byte stream: memory goes with the bytes a
 * peer sends, never with the length it declares (issue 17, finding 5).
 */
class FrameReaderTest {

  private static final int LIMIT = 1 << 28; // the default frame limit, 256 MiB

  private final Socket unconnected = new Socket(); // only its read timeout is set

  @AfterEach
  void close() throws IOException {
    unconnected.close();
  }

  /**
   * Serves {@code chunks} in turn, at most {@code perRead} bytes a read, then either ends the
   * stream or, like a peer that says nothing more, times out.
   */
  private static final class HostileStream extends InputStream {
    private final ByteBuffer bytes;
    private final int perRead;
    private final boolean endsWithTimeout;

    HostileStream(byte[] all, int perRead, boolean endsWithTimeout) {
      this.bytes = ByteBuffer.wrap(all);
      this.perRead = perRead;
      this.endsWithTimeout = endsWithTimeout;
    }

    @Override
    public int read() {
      throw new UnsupportedOperationException("the reader reads in bulk");
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
      if (!bytes.hasRemaining()) {
        if (endsWithTimeout) {
          throw new SocketTimeoutException("Read timed out");
        }
        return -1;
      }
      int n = Math.min(Math.min(length, perRead), bytes.remaining());
      bytes.get(into, offset, n);
      return n;
    }
  }

  private FrameReader reader(byte[] stream, int perRead, boolean endsWithTimeout) {
    FrameReader reader =
        new FrameReader(unconnected, new HostileStream(stream, perRead, endsWithTimeout), LIMIT);
    reader.deadline(System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
    return reader;
  }

  private static byte[] prefix(int length, int channel) {
    return ByteBuffer.allocate(12).putInt(length).putInt(channel).putInt(0).array();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void read_hugeFrameDeclaredBeforeTheHello_isRefusedWithoutAllocatingIt() throws IOException {
    FrameReader reader = reader(prefix(LIMIT, WireFormat.DATA), 12, true);
    long before = Allocations.ofCurrentThread();
    InboundFrame frame = reader.read();
    long allocated = Allocations.ofCurrentThread() - before;
    assertEquals(
        new InboundFrame.Error(
            "frame of 268435456 bytes before the hello, which takes 16 bytes: nothing longer may"
                + " come first"),
        frame);
    assertTrue(allocated < Allocations.MIB, allocated + " bytes allocated for a 12-byte prefix");
  }

  /** After its hello a peer declares 256 MiB, sends 3 MiB of it and then nothing. */
  @Test
  void read_hugeFrameTrickledAfterTheHello_allocatesWithTheBytesThatArrive() throws IOException {
    int sent = 3 << 20;
    byte[] stream = concat(FrameEncoder.hello(0), prefix(LIMIT, WireFormat.DATA), new byte[sent]);
    FrameReader reader = reader(stream, 4099, true);
    assertEquals(new InboundFrame.Hello(0), reader.read());
    long before = Allocations.ofCurrentThread();
    assertThrows(SocketTimeoutException.class, reader::read);
    long allocated = Allocations.ofCurrentThread() - before;
    assertTrue(
        allocated <= 10L * sent + 2 * Allocations.MIB,
        allocated + " bytes allocated after " + sent + " bytes of the frame arrived");
  }

  @Test
  void read_connectionEndsRightAfterAHugeLength_allocatesAtMostTheFirstStep() throws IOException {
    byte[] stream = concat(FrameEncoder.hello(0), prefix(LIMIT, WireFormat.DATA));
    FrameReader reader = reader(stream, 1 << 16, false);
    assertEquals(new InboundFrame.Hello(0), reader.read());
    long before = Allocations.ofCurrentThread();
    InboundFrame frame = reader.read();
    long allocated = Allocations.ofCurrentThread() - before;
    assertEquals(
        new InboundFrame.Error("connection closed inside a frame (12 bytes of it arrived)"), frame);
    assertTrue(
        allocated <= 8L * WireFormat.EAGER_WORDS + Allocations.MIB / 4,
        allocated + " bytes allocated for a 12-byte prefix");
  }

  @Test
  void read_abortWithAHugeReason_keepsTheFirstKibibyteAndSkipsTheRest() throws IOException {
    int reasonBytes = 1 << 22;
    byte[] reason = new byte[reasonBytes];
    Arrays.fill(reason, (byte) 'x');
    byte[] stream =
        concat(
            FrameEncoder.hello(0),
            prefix(WireFormat.HEADER_BYTES + reasonBytes, WireFormat.ABORT),
            reason);
    FrameReader reader = reader(stream, 1 << 16, false);
    assertEquals(new InboundFrame.Hello(0), reader.read());
    long before = Allocations.ofCurrentThread();
    InboundFrame frame = reader.read();
    long allocated = Allocations.ofCurrentThread() - before;
    assertEquals(
        new InboundFrame.Abort(0, "x".repeat(1024) + "... (reason cut from 4194304 bytes)"), frame);
    assertTrue(allocated < Allocations.MIB, allocated + " bytes allocated for a 4 MiB reason");
  }

  /** Frames around every size where the word array grows, in reads of odd sizes, arrive whole. */
  @Test
  void read_largeFramesAcrossTheGrowthSteps_yieldEveryWord() throws IOException {
    SplittableRandom random = new SplittableRandom(23);
    int eager = WireFormat.EAGER_WORDS;
    int[] sizes = {eager - 1, eager, eager + 1, 4 * eager + 5, 8 * eager, 9 * eager + 3};
    long[][] sent = new long[sizes.length][];
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    stream.writeBytes(FrameEncoder.hello(0));
    for (int r = 0; r < sizes.length; r++) {
      sent[r] = random.longs(sizes[r]).toArray();
      byte[] frame = new byte[(int) FrameEncoder.dataBytes(sizes[r])];
      FrameEncoder.data(frame, r, sent[r], sizes[r]);
      stream.writeBytes(frame);
    }
    FrameReader reader = reader(stream.toByteArray(), 40_001, false);
    assertEquals(new InboundFrame.Hello(0), reader.read());
    for (int r = 0; r < sizes.length; r++) {
      InboundFrame.Data data = (InboundFrame.Data) reader.read();
      assertEquals(r, data.round());
      assertArrayEquals(sent[r], data.words(), "round " + r);
    }
    assertEquals(null, reader.read(), "the stream ended between frames");
  }
}
