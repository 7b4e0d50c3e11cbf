package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.WireFormat;
import dev.cohort.transport.WireReference;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The socket transport's byte order against {@link WireReference}: big-endian header fields and
 * hello magic, little-endian data words, for small frames and one over 1 MiB, both ways; and a
 * hello of version 01 refused.
 */
class SocketWordOrderTest {

  private static final int MIB_WORDS = 1 << 17;

  private final Socket unconnected = new Socket(); // only its read timeout is set

  @AfterEach
  void close() throws IOException {
    unconnected.close();
  }

  /** A stream of {@code bytes} that hands out at most {@code perRead} of them a read. */
  private static InputStream trickle(byte[] bytes, int perRead) {
    return new InputStream() {
      private int at;

      @Override
      public int read() {
        throw new UnsupportedOperationException("the reader reads in bulk");
      }

      @Override
      public int read(byte[] into, int offset, int length) {
        if (at == bytes.length) {
          return -1;
        }
        int n = Math.min(Math.min(length, perRead), bytes.length - at);
        System.arraycopy(bytes, at, into, offset, n);
        at += n;
        return n;
      }
    };
  }

  private FrameReader reader(byte[] stream, int perRead) {
    FrameReader reader = new FrameReader(unconnected, trickle(stream, perRead), 1 << 26);
    reader.deadline(System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
    return reader;
  }

  private static byte[] encode(int round, long[] words, int length) {
    byte[] into = new byte[(int) FrameEncoder.dataBytes(length) + 5]; // room to spare, unwritten
    int bytes = FrameEncoder.data(into, round, words, length);
    assertEquals(FrameEncoder.dataBytes(length), bytes);
    return Arrays.copyOf(into, bytes);
  }

  @Test
  void data_twoWords_areLittleEndianAfterABigEndianHeader() {
    byte[] frame = encode(5, new long[] {0x0102030405060708L, -2L, 9}, 2);
    assertEquals(
        "00000018" + "00000000" + "00000005" + "0807060504030201" + "feffffffffffffff",
        HexFormat.of().formatHex(frame));
  }

  @Test
  void hello_isABigEndianHeaderAndTheVersionInLetters() {
    assertArrayEquals(WireReference.hello(2, WireReference.VERSION), FrameEncoder.hello(2));
  }

  /** Small frames, and one of 3 MiB as a large round's frame is. */
  @Test
  void data_framesSmallAndOverAMebibyte_matchTheReferenceByteForByte() {
    int[] lengths = {0, 1, WireReference.edgeWords().length, 3 * MIB_WORDS - 7};
    for (int length : lengths) {
      long[] words = WireReference.words(length + 3, MIB_WORDS, length); // 3 spare, not sent
      assertArrayEquals(
          WireReference.data(7, words, length), encode(7, words, length), length + " words");
    }
  }

  /**
   * Hand-built frames (a frame of the edge words, one of 3 MiB, which outgrows its first word
   * array) in reads of odd sizes: every word arrives as it was built.
   */
  @Test
  void read_referenceFramesInOddReads_yieldTheirWords() throws IOException {
    long[] edges = WireReference.edgeWords();
    long[] large = WireReference.words(3 * MIB_WORDS + 5, MIB_WORDS, 41);
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    stream.writeBytes(WireReference.hello(0, WireReference.VERSION));
    stream.writeBytes(WireReference.data(0, edges, edges.length));
    stream.writeBytes(WireReference.data(1, large, large.length));
    for (int perRead : new int[] {3, 40_001}) {
      FrameReader reader = reader(stream.toByteArray(), perRead);
      assertEquals(new InboundFrame.Hello(0), reader.read());
      assertArrayEquals(edges, ((InboundFrame.Data) reader.read()).words(), perRead + " a read");
      InboundFrame.Data second = (InboundFrame.Data) reader.read();
      assertEquals(1, second.round());
      assertArrayEquals(large, second.words(), perRead + " a read");
      assertNull(reader.read(), "the stream ended between frames");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {WireReference.VERSION_01, WireReference.VERSION_02})
  void read_helloOfAnEarlierVersion_isRefusedAsNotACohortHello(String version) throws IOException {
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    stream.writeBytes(WireReference.hello(0, version));
    stream.writeBytes(WireReference.data(0, new long[] {1}, 1));
    FrameReader reader = reader(stream.toByteArray(), 1 << 16);
    assertEquals(new InboundFrame.Error(WireFormat.NOT_A_HELLO), reader.read());
    assertEquals("hello is not a Cohort hello (wrong protocol or version)", WireFormat.NOT_A_HELLO);
  }
}
