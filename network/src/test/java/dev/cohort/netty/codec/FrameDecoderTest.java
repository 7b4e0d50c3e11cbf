package dev.cohort.netty.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/** The frame decoder on an embedded channel: frames split across reads, and every rejection. */
class FrameDecoderTest {

  private static final int LIMIT = 1024;
  private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

  private final EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(LIMIT));

  /** Writes {@code frames} one byte per read, as the slowest network would deliver them. */
  private void writeByteByByte(ByteBuf... frames) {
    ByteBuf all = Unpooled.wrappedBuffer(frames);
    try {
      while (all.isReadable()) {
        channel.writeInbound(all.readRetainedSlice(1));
      }
    } finally {
      all.release();
    }
  }

  private InboundFrame.Error expectError() {
    InboundFrame frame = channel.readInbound();
    assertTrue(frame instanceof InboundFrame.Error, "expected an error, got " + frame);
    assertFalse(channel.isOpen(), "the decoder closed the connection");
    assertNull(channel.readInbound(), "nothing after the error");
    return (InboundFrame.Error) frame;
  }

  @Test
  void decode_framesSplitAcrossReads_yieldsWordsInOrder() {
    writeByteByByte(
        FrameCodec.hello(ALLOC, 3),
        FrameCodec.data(ALLOC, 0, new long[] {1, -2, Long.MAX_VALUE, 4}, 3),
        FrameCodec.data(ALLOC, 1, new long[0], 0),
        FrameCodec.abort(ALLOC, 2, "gave up: ünïcode"));
    assertEquals(new InboundFrame.Hello(3), channel.readInbound());
    InboundFrame.Data first = channel.readInbound();
    assertEquals(0, first.round());
    assertArrayEquals(new long[] {1, -2, Long.MAX_VALUE}, first.words());
    assertEquals(FrameCodec.dataFrameBytes(3), first.wireBytes());
    InboundFrame.Data second = channel.readInbound();
    assertEquals(1, second.round());
    assertEquals(0, second.words().length);
    assertEquals(new InboundFrame.Abort(2, "gave up: ünïcode"), channel.readInbound());
    assertTrue(channel.isOpen());
    assertFalse(channel.finish());
  }

  /**
   * Large frames cut at random places (inside words, inside prefixes, several frames in one read):
   * the bulk copy, the bytes of a word split across reads and the next frame's prefix all meet.
   */
  @Test
  void decode_framesCutAtRandomPlaces_yieldsEveryWord() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(11);
    EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(1 << 20));
    long[][] sent = new long[20][];
    ByteBuf all = Unpooled.buffer();
    for (int r = 0; r < sent.length; r++) {
      sent[r] = random.longs(random.nextInt(0, 3000)).toArray();
      ByteBuf frame = FrameCodec.data(ALLOC, r, sent[r], sent[r].length);
      all.writeBytes(frame);
      frame.release();
    }
    while (all.isReadable()) {
      int cut = Math.min(all.readableBytes(), random.nextInt(1, 5000));
      big.writeInbound(all.readRetainedSlice(cut));
    }
    all.release();
    for (int r = 0; r < sent.length; r++) {
      InboundFrame.Data data = big.readInbound();
      assertEquals(r, data.round());
      assertArrayEquals(sent[r], data.words(), "round " + r);
      assertEquals(FrameCodec.dataFrameBytes(sent[r].length), data.wireBytes());
    }
    assertNull(big.readInbound());
    assertFalse(big.finish());
  }

  @Test
  void decode_oversizedLengthField_closesWithErrorBeforeThePayloadArrives() {
    channel.writeInbound(Unpooled.buffer().writeInt(Integer.MAX_VALUE));
    assertEquals(
        "frame of 2147483647 bytes exceeds the limit of 1024 bytes", expectError().reason());
  }

  @Test
  void decode_lengthShorterThanHeader_closesWithError() {
    channel.writeInbound(Unpooled.buffer().writeInt(-5).writeInt(0));
    assertEquals("frame length (-5) is shorter than its 8-byte header", expectError().reason());
  }

  @Test
  void decode_roundOutOfSequence_closesWithError() {
    channel.writeInbound(FrameCodec.data(ALLOC, 0, new long[] {1}, 1));
    channel.writeInbound(FrameCodec.data(ALLOC, 2, new long[] {1}, 1));
    assertEquals(0, ((InboundFrame.Data) channel.readInbound()).round());
    assertEquals("frame for round 2 arrived when round 1 was due", expectError().reason());
  }

  @Test
  void decode_unknownChannel_closesWithError() {
    channel.writeInbound(Unpooled.buffer().writeInt(8).writeInt(7).writeInt(0));
    assertEquals("frame on unknown channel 7", expectError().reason());
  }

  @Test
  void decode_wrongHelloMagic_closesWithError() {
    channel.writeInbound(
        Unpooled.buffer().writeInt(16).writeInt(FrameCodec.HELLO).writeInt(0).writeLong(42));
    assertEquals("hello is not a Cohort hello (wrong protocol or version)", expectError().reason());
  }

  @Test
  void decode_partialWord_closesWithError() {
    channel.writeInbound(
        Unpooled.buffer().writeInt(11).writeInt(FrameCodec.DATA).writeInt(0).writeMedium(1));
    assertEquals(
        "data frame payload of 3 bytes is not a whole number of words", expectError().reason());
  }

  @Test
  void decodeLast_connectionEndsInsideAFrame_reportsTruncation() {
    ByteBuf frame = FrameCodec.data(ALLOC, 0, new long[] {1, 2}, 2);
    channel.writeInbound(frame.readRetainedSlice(10));
    frame.release();
    assertNull(channel.readInbound());
    channel.finish();
    InboundFrame frameRead = channel.readInbound();
    assertEquals(
        new InboundFrame.Error("connection closed inside a frame (10 bytes of it arrived)"),
        frameRead);
  }

  @Test
  void decode_bytesAfterAnError_areDiscarded() {
    channel.writeInbound(
        Unpooled.buffer().writeInt(8).writeInt(7).writeInt(0),
        FrameCodec.data(ALLOC, 0, new long[] {1}, 1));
    expectError();
  }
}
