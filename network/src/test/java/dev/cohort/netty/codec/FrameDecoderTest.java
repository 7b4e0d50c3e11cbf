package dev.cohort.netty.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.transport.Allocations;
import dev.cohort.transport.InboundFrame;
import dev.cohort.transport.WireFormat;
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

  /** Says the hello every connection starts with, after which frames longer than it may come. */
  private static void helloFirst(EmbeddedChannel on) {
    on.writeInbound(FrameCodec.hello(ALLOC, 0));
    assertEquals(new InboundFrame.Hello(0), on.readInbound());
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
    assertEquals(WireFormat.dataFrameBytes(3), first.wireBytes());
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
    helloFirst(big);
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
      assertEquals(WireFormat.dataFrameBytes(sent[r].length), data.wireBytes());
    }
    assertNull(big.readInbound());
    assertFalse(big.finish());
  }

  /**
   * Frames of more than one part ({@link FrameCodec#PART_BYTES}): the parts are the frame's bytes
   * in order, a big-endian header and little-endian words as a frame of one buffer would be, and
   * decode to the words sent, for a part boundary inside the payload and one that falls on the last
   * word.
   */
  @Test
  void encode_largeFrameInParts_isTheFrameByteForByte() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(12);
    int partWords = FrameCodec.PART_BYTES / 8;
    EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(1 << 26));
    helloFirst(big);
    int[] lengths = {partWords + 1, 2 * partWords, 3 * partWords - 7};
    for (int r = 0; r < lengths.length; r++) {
      long[] words = random.longs(lengths[r] + 5).toArray(); // only lengths[r] of them are sent
      ByteBuf frame = FrameCodec.data(ALLOC, r, words, lengths[r]);
      assertEquals(WireFormat.dataFrameBytes(lengths[r]), frame.readableBytes());
      assertEquals(WireFormat.HEADER_BYTES + 8 * lengths[r], frame.getInt(0));
      assertEquals(WireFormat.DATA, frame.getInt(4));
      assertEquals(r, frame.getInt(8));
      for (int i = 0; i < lengths[r]; i++) {
        assertEquals(words[i], frame.getLongLE(12 + 8 * i), "word " + i);
      }
      big.writeInbound(frame);
      InboundFrame.Data data = big.readInbound();
      assertEquals(r, data.round());
      assertArrayEquals(java.util.Arrays.copyOf(words, lengths[r]), data.words(), "round " + r);
    }
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

  /** Rounds may skip (a round whose link carries no words has no frame) but never go back. */
  @Test
  void decode_roundsSkipForwardButNeverBack_aRepeatedRoundClosesWithError() {
    channel.writeInbound(FrameCodec.data(ALLOC, 0, new long[] {1}, 1));
    channel.writeInbound(FrameCodec.data(ALLOC, 3, new long[] {2}, 1));
    channel.writeInbound(FrameCodec.data(ALLOC, 3, new long[] {3}, 1));
    assertEquals(0, ((InboundFrame.Data) channel.readInbound()).round());
    assertEquals(3, ((InboundFrame.Data) channel.readInbound()).round());
    assertEquals("frame for round 3 arrived when round 4 or later was due", expectError().reason());
  }

  @Test
  void decode_unknownChannel_closesWithError() {
    channel.writeInbound(Unpooled.buffer().writeInt(8).writeInt(7).writeInt(0));
    assertEquals("frame on unknown channel 7", expectError().reason());
  }

  @Test
  void decode_wrongHelloMagic_closesWithError() {
    channel.writeInbound(
        Unpooled.buffer().writeInt(16).writeInt(WireFormat.HELLO).writeInt(0).writeLong(42));
    assertEquals("hello is not a Cohort hello (wrong protocol or version)", expectError().reason());
  }

  @Test
  void decode_partialWord_closesWithError() {
    channel.writeInbound(
        Unpooled.buffer().writeInt(11).writeInt(WireFormat.DATA).writeInt(0).writeMedium(1));
    assertEquals(
        "data frame payload of 3 bytes is not a whole number of words", expectError().reason());
  }

  @Test
  void decodeLast_connectionEndsInsideAFrame_reportsTruncation() {
    helloFirst(channel);
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

  // Memory goes with the bytes a peer sends, never with the length it declares (issue 17, #5).

  /** A length field claiming {@code length} bytes of a data frame for round 0, and its header. */
  private static ByteBuf prefix(int length, int channel) {
    return Unpooled.buffer(12).writeInt(length).writeInt(channel).writeInt(0);
  }

  @Test
  void decode_hugeFrameDeclaredBeforeTheHello_isRefusedWithoutAllocatingIt() {
    EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(1 << 28));
    long before = Allocations.ofCurrentThread();
    big.writeInbound(prefix(1 << 28, WireFormat.DATA));
    long allocated = Allocations.ofCurrentThread() - before;
    InboundFrame frame = big.readInbound();
    assertEquals(
        new InboundFrame.Error(
            "frame of 268435456 bytes before the hello, which takes 16 bytes: nothing longer may"
                + " come first"),
        frame);
    assertFalse(big.isOpen());
    assertTrue(allocated < Allocations.MIB, allocated + " bytes allocated for a 12-byte prefix");
  }

  /**
   * An authenticated peer declares a 256 MiB frame and trickles its bytes: the decoder holds at
   * most a few times what has arrived, and at first no more than 1 MiB.
   */
  @Test
  void decode_hugeFrameTrickledAfterTheHello_allocatesWithTheBytesThatArrive() {
    EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(1 << 28));
    helloFirst(big);
    long before = Allocations.ofCurrentThread();
    big.writeInbound(prefix(1 << 28, WireFormat.DATA));
    long afterPrefix = Allocations.ofCurrentThread() - before;
    assertTrue(
        afterPrefix <= 8L * WireFormat.EAGER_WORDS + Allocations.MIB / 4,
        afterPrefix + " bytes allocated for a 12-byte prefix");
    byte[] chunk = new byte[64 * 1024 + 3]; // odd, so words split across reads
    long sent = 0;
    for (int i = 0; i < 96; i++) { // 6 MiB of the 256 declared
      big.writeInbound(Unpooled.wrappedBuffer(chunk));
      sent += chunk.length;
    }
    long allocated = Allocations.ofCurrentThread() - before;
    assertTrue(
        allocated <= 10 * sent + 2 * Allocations.MIB,
        allocated + " bytes allocated after " + sent + " bytes of the frame arrived");
    assertNull(big.readInbound(), "the frame is not complete");
    assertTrue(big.isOpen());
    big.finish();
  }

  @Test
  void decode_abortWithAHugeReason_keepsTheFirstKibibyteAndSkipsTheRest() {
    EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(1 << 24));
    helloFirst(big);
    int reasonBytes = 1 << 22;
    byte[] chunk = new byte[64 * 1024];
    java.util.Arrays.fill(chunk, (byte) 'x');
    long before = Allocations.ofCurrentThread();
    big.writeInbound(prefix(WireFormat.HEADER_BYTES + reasonBytes, WireFormat.ABORT));
    for (int sent = 0; sent < reasonBytes; sent += chunk.length) {
      big.writeInbound(Unpooled.wrappedBuffer(chunk));
    }
    long allocated = Allocations.ofCurrentThread() - before;
    InboundFrame.Abort abort = big.readInbound();
    assertEquals("x".repeat(1024) + "... (reason cut from 4194304 bytes)", abort.reason());
    assertTrue(allocated < Allocations.MIB, allocated + " bytes allocated for a 4 MiB reason");
  }

  @Test
  void abort_reasonLongerThanAKibibyte_isCutBeforeSendingAtACharacterBoundary() {
    EmbeddedChannel decoder = new EmbeddedChannel(new FrameDecoder(1 << 16));
    helloFirst(decoder);
    decoder.writeInbound(FrameCodec.abort(ALLOC, 3, "é".repeat(600))); // 2 bytes each
    assertEquals(new InboundFrame.Abort(3, "é".repeat(512)), decoder.readInbound());
    decoder.writeInbound(FrameCodec.abort(ALLOC, 4, "€".repeat(600))); // 3 bytes each
    assertEquals(new InboundFrame.Abort(4, "€".repeat(341)), decoder.readInbound());
  }

  /** Frames around every size where the word array grows, cut at random places, arrive whole. */
  @Test
  void decode_largeFramesAcrossTheGrowthSteps_yieldEveryWord() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(17);
    EmbeddedChannel big = new EmbeddedChannel(new FrameDecoder(1 << 26));
    helloFirst(big);
    int eager = WireFormat.EAGER_WORDS;
    int[] sizes = {eager - 1, eager, eager + 1, 4 * eager + 5, 8 * eager, 9 * eager + 3};
    ByteBuf all = Unpooled.buffer();
    long[][] sent = new long[sizes.length][];
    for (int r = 0; r < sizes.length; r++) {
      sent[r] = random.longs(sizes[r]).toArray();
      ByteBuf frame = FrameCodec.data(ALLOC, r, sent[r], sent[r].length);
      all.writeBytes(frame);
      frame.release();
    }
    while (all.isReadable()) {
      int cut = Math.min(all.readableBytes(), random.nextInt(1, 300_000));
      big.writeInbound(all.readRetainedSlice(cut));
    }
    all.release();
    for (int r = 0; r < sizes.length; r++) {
      InboundFrame.Data data = big.readInbound();
      assertEquals(r, data.round());
      assertArrayEquals(sent[r], data.words(), "round " + r);
    }
    assertFalse(big.finish());
  }
}
