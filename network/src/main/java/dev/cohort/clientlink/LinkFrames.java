package dev.cohort.clientlink;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * The client link's wire format, and its encoder. Every frame, either way, is
 *
 * <pre>
 *  +-----------------------+------------------------+
 *  | length (uint32, BE)   | payload (length bytes) |
 *  +-----------------------+------------------------+
 * </pre>
 *
 * with {@code length} at most the receiver's {@link ClientLinkOptions#maxFrameBytes}. The server's
 * first frame on a connection is its admission: empty when it admits the client, else the UTF-8
 * reason it refuses it for, after which it closes the connection. Every later frame, either way, is
 * the application's. The client's id is never on the wire: it is its certificate's.
 */
final class LinkFrames {

  static final int LENGTH_BYTES = 4;

  /** Longest refusal reason sent, in bytes; a longer one is cut. */
  static final int MAX_REASON_BYTES = 256;

  private LinkFrames() {}

  /** One frame carrying {@code payload}, which must not exceed {@code maxFrameBytes}. */
  static ByteBuf encode(ByteBufAllocator alloc, byte[] payload, int maxFrameBytes) {
    if (payload.length > maxFrameBytes) {
      throw new IllegalArgumentException(
          "payload of "
              + payload.length
              + " bytes exceeds the limit of "
              + maxFrameBytes
              + " bytes a frame");
    }
    return alloc.buffer(LENGTH_BYTES + payload.length).writeInt(payload.length).writeBytes(payload);
  }

  /** The server's admission: an empty frame. */
  static ByteBuf admitted(ByteBufAllocator alloc) {
    return alloc.buffer(LENGTH_BYTES).writeInt(0);
  }

  /** The server's refusal, with its reason. */
  static ByteBuf refused(ByteBufAllocator alloc, String reason) {
    byte[] bytes = reason.getBytes(StandardCharsets.UTF_8);
    int length = Math.min(bytes.length, MAX_REASON_BYTES);
    return alloc.buffer(LENGTH_BYTES + length).writeInt(length).writeBytes(bytes, 0, length);
  }

  /** The reason a refusal frame carries. */
  static String reason(byte[] payload) {
    return new String(payload, StandardCharsets.UTF_8);
  }
}
