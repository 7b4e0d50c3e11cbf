package dev.cohort.netty.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.WireFormat;
import dev.cohort.transport.WireReference;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Netty codec's byte order against {@link WireReference}: big-endian header fields and hello
 * magic, little-endian data words, for a frame of one buffer and one of several parts ({@link
 * FrameCodec#PART_BYTES}), both ways; and a hello of version 01 refused.
 */
class NettyWordOrderTest {

  private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;
  private static final int PART_WORDS = FrameCodec.PART_BYTES / 8;

  /** The bytes of {@code frame}, which is released. */
  private static byte[] bytesOf(ByteBuf frame) {
    try {
      return ByteBufUtil.getBytes(frame);
    } finally {
      frame.release();
    }
  }

  @Test
  void data_twoWords_areLittleEndianAfterABigEndianHeader() {
    byte[] frame = bytesOf(FrameCodec.data(ALLOC, 5, new long[] {0x0102030405060708L, -2L, 9}, 2));
    assertEquals(
        "00000018" + "00000000" + "00000005" + "0807060504030201" + "feffffffffffffff",
        ByteBufUtil.hexDump(frame));
  }

  @Test
  void hello_isABigEndianHeaderAndTheVersionInLetters() {
    byte[] hello = bytesOf(FrameCodec.hello(ALLOC, 2));
    assertArrayEquals(WireReference.hello(2, WireReference.VERSION), hello);
    assertEquals("COHORT03", new String(hello, 12, 8, java.nio.charset.StandardCharsets.US_ASCII));
  }

  /** One buffer, a part and a word over, and several parts with a short last one. */
  @Test
  void data_framesOfOneAndOfSeveralParts_matchTheReferenceByteForByte() {
    int[] lengths = {0, 1, WireReference.edgeWords().length, PART_WORDS, PART_WORDS + 1};
    for (int length : lengths) {
      assertEncodesAsReference(length);
    }
    assertEncodesAsReference(3 * PART_WORDS - 7); // 3 MiB: the composite of pooled parts
  }

  private static void assertEncodesAsReference(int length) {
    long[] words = WireReference.words(length + 3, PART_WORDS, length); // 3 spare, not sent
    ByteBuf frame = FrameCodec.data(ALLOC, 7, words, length);
    byte[] actual = bytesOf(frame);
    assertArrayEquals(WireReference.data(7, words, length), actual, length + " words");
  }

  /**
   * Hand-built frames (a hello, a frame of the edge words, one of 3 MiB) cut at odd places, so that
   * words split across reads and the bulk copy meet: every word arrives as it was built.
   */
  @Test
  void decode_referenceFramesCutAtOddPlaces_yieldTheirWords() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1 << 26));
    long[] edges = WireReference.edgeWords();
    long[] large = WireReference.words(3 * PART_WORDS + 5, PART_WORDS, 41);
    ByteBuf all =
        Unpooled.wrappedBuffer(
            WireReference.hello(0, WireReference.VERSION),
            WireReference.data(0, edges, edges.length),
            WireReference.data(1, large, large.length));
    SplittableRandom random = new SplittableRandom(43);
    while (all.isReadable()) {
      int cut = Math.min(all.readableBytes(), 1 + 2 * random.nextInt(0, 150_000));
      channel.writeInbound(all.readRetainedSlice(cut));
    }
    all.release();
    assertEquals(new InboundFrame.Hello(0), channel.readInbound());
    InboundFrame.Data first = channel.readInbound();
    assertArrayEquals(edges, first.words());
    InboundFrame.Data second = channel.readInbound();
    assertEquals(1, second.round());
    assertArrayEquals(large, second.words());
    assertNull(channel.readInbound());
    assertFalse(channel.finish());
  }

  /** A frame of words sent one byte a read: only the bytes of split words, never a bulk copy. */
  @Test
  void decode_referenceFrameByteByByte_yieldsItsWords() {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));
    long[] edges = WireReference.edgeWords();
    ByteBuf all =
        Unpooled.wrappedBuffer(
            WireReference.hello(0, WireReference.VERSION),
            WireReference.data(0, edges, edges.length));
    while (all.isReadable()) {
      channel.writeInbound(all.readRetainedSlice(1));
    }
    all.release();
    assertEquals(new InboundFrame.Hello(0), channel.readInbound());
    assertArrayEquals(edges, ((InboundFrame.Data) channel.readInbound()).words());
  }

  @ParameterizedTest
  @ValueSource(strings = {WireReference.VERSION_01, WireReference.VERSION_02})
  void decode_helloOfAnEarlierVersion_isRefusedAsNotACohortHello(String version) {
    EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(1024));
    channel.writeInbound(
        Unpooled.wrappedBuffer(
            WireReference.hello(0, version), WireReference.data(0, new long[] {1}, 1)));
    assertEquals(new InboundFrame.Error(WireFormat.NOT_A_HELLO), channel.readInbound());
    assertEquals("hello is not a Cohort hello (wrong protocol or version)", WireFormat.NOT_A_HELLO);
    assertFalse(channel.isOpen());
    assertNull(channel.readInbound(), "nothing after the refusal");
  }
}
