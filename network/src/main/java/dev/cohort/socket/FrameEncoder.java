package dev.cohort.socket;

import static dev.cohort.socket.FrameReader.INT;
import static dev.cohort.socket.FrameReader.LONG;

import dev.cohort.transport.WireFormat;

/**
 * Writes frames of the Netty transport's wire format ({@link WireFormat}) into byte arrays, header
 * and payload together, so that a frame leaves in one write (and, under TLS, one record when it is
 * small). Big-endian words go in through a byte-array view, with no object per word.
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
    for (int i = 0; i < length; i++, at += 8) {
      LONG.set(into, at, words[i]);
    }
    return at;
  }

  static byte[] hello(int party) {
    byte[] frame = new byte[WireFormat.LENGTH_BYTES + WireFormat.HEADER_BYTES + 8];
    INT.set(frame, 0, WireFormat.HEADER_BYTES + 8);
    INT.set(frame, 4, WireFormat.HELLO);
    INT.set(frame, 8, party);
    LONG.set(frame, 12, WireFormat.MAGIC);
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
