package dev.cohort.clientlink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cohort.netty.LeakCheck;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The client link's frames: split anyhow they decode whole; a length over the limit stops all. */
@ExtendWith(LeakCheck.class)
class LinkFrameDecoderTest {

  private static byte[] frame(byte[] payload) {
    return ByteBuffer.allocate(4 + payload.length).putInt(payload.length).put(payload).array();
  }

  @Test
  void decode_framesSplitIntoSingleBytes_comeOutWholeAndInOrder() {
    byte[] large = new byte[1024];
    new Random(7).nextBytes(large);
    byte[][] payloads = {{1, 2, 3}, {}, large};
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    for (byte[] p : payloads) {
      wire.writeBytes(frame(p));
    }
    EmbeddedChannel channel = new EmbeddedChannel(new LinkFrameDecoder(1024));
    for (byte b : wire.toByteArray()) {
      channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
    }
    for (byte[] p : payloads) {
      assertArrayEquals(p, (byte[]) channel.readInbound());
    }
    assertNull(channel.readInbound());
    channel.finishAndReleaseAll();
  }

  @Test
  void decode_lengthOverTheLimit_isRefusedAtItsPrefixAndEverythingAfterIsDropped() {
    EmbeddedChannel channel = new EmbeddedChannel(new LinkFrameDecoder(1024));
    ByteBuf bytes = Unpooled.buffer();
    bytes.writeBytes(frame(new byte[] {9}));
    bytes.writeInt(0xFFFFFFFF); // 4 GiB declared, none of it sent
    bytes.writeBytes(frame(new byte[] {8}));
    channel.writeInbound(bytes);
    assertArrayEquals(new byte[] {9}, (byte[]) channel.readInbound());
    assertEquals(
        new LinkFrameDecoder.Oversize("frame of 4294967295 bytes exceeds the limit of 1024 bytes"),
        channel.readInbound());
    channel.writeInbound(Unpooled.wrappedBuffer(frame(new byte[] {7})));
    assertNull(channel.readInbound(), "nothing after the refusal");
    channel.finishAndReleaseAll();
  }

  @Test
  void decode_lengthAtTheLimit_isAcceptedAndOneMoreIsNot() {
    EmbeddedChannel channel = new EmbeddedChannel(new LinkFrameDecoder(16));
    channel.writeInbound(Unpooled.wrappedBuffer(frame(new byte[16])));
    assertArrayEquals(new byte[16], (byte[]) channel.readInbound());
    channel.writeInbound(Unpooled.wrappedBuffer(frame(new byte[17])));
    assertEquals(
        new LinkFrameDecoder.Oversize("frame of 17 bytes exceeds the limit of 16 bytes"),
        channel.readInbound());
    channel.finishAndReleaseAll();
  }
}
