package dev.cohort.transport;

/**
 * What {@link FrameDecoder} hands up the pipeline: a decoded frame, already copied out of its
 * {@code ByteBuf}, or the reason the byte stream was rejected.
 */
public sealed interface InboundFrame {

  /** One round's words from a peer, and the bytes the frame took on the wire. */
  record Data(int round, long[] words, int wireBytes) implements InboundFrame {}

  /** The first frame on every connection: the id the peer claims. */
  record Hello(int party) implements InboundFrame {}

  /** The peer gave up in {@code round}; {@code reason} is its own short explanation. */
  record Abort(int round, String reason) implements InboundFrame {}

  /** The stream broke the frame format; the decoder has closed the connection. */
  record Error(String reason) implements InboundFrame {}
}
