package dev.cohort.socket;

import static dev.cohort.socket.FrameReader.INT;
import static dev.cohort.socket.FrameReader.MAGIC;

import dev.cohort.transport.WireFormat;
import java.nio.ByteBuffer;

/**
 * Writes frames of the Netty transport's wire format ({@link WireFormat}) into byte arrays, header
 * and payload together, so that a frame leaves in one write (and, under TLS, one record when it is
 * small). Header fields are big-endian (through byte-array views); a data frame's words go in
 * little-endian with one bulk copy ({@link WireFormat#putWords}), a plain one on x86 and ARM.
 */
final class FrameEncoder {

  private FrameEncoder() {}

  /** The bytes of a data frame of {@code words} words, length field included. */
  static long dataBytes(int words) {
    return WireFormat.dataFrameBytes(words);
  }

  /** Writes a data frame at the start of {@code into}; returns its bytes. */
  static int data(byte[] into, int round, long[] words, int length) {
    int payload = 8 * length;
    INT.set(into, 0, WireFormat.HEADER_BYTES + payload);
    INT.set(into, 4, WireFormat.DATA);
    INT.set(into, 8, round);
    int at = WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES;
    WireFormat.putWords(ByteBuffer.wrap(into, at, payload), words, 0, length);
    return at + payload;
  }

  static byte[] hello(int party) {
    byte[] frame = new byte[WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES + 8];
    INT.set(frame, 0, WireFormat.HEADER_BYTES + 8);
    INT.set(frame, 4, WireFormat.HELLO);
    INT.set(frame, 8, party);
    MAGIC.set(frame, 12, WireFormat.MAGIC);
    return frame;
  }

  static byte[] abort(int round, String reason) {
    byte[] bytes = WireFormat.reasonBytes(reason);
    byte[] frame = new byte[WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES + bytes.length];
    INT.set(frame, 0, WireFormat.HEADER_BYTES + bytes.length);
    INT.set(frame, 4, WireFormat.ABORT);
    INT.set(frame, 8, round);
    System.arraycopy(bytes, 0, frame, 12, bytes.length);
    return frame;
  }
}
