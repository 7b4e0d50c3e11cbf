/**
 * The Netty transport's wire format: {@link dev.cohort.netty.codec.FrameCodec} (the frame layout
 * and its encoders, pictured there), {@link dev.cohort.netty.codec.FrameDecoder} (bytes to frames,
 * with the limits on length, channel and round order) and {@link
 * dev.cohort.netty.codec.InboundFrame} (what the decoder hands up: a frame or the reason the stream
 * was rejected).
 *
 * <p>Invariant: this is the only place a {@code ByteBuf} is seen; a frame is copied into a {@code
 * long[]} or {@code byte[]} at once and its buffer released.
 */
package dev.cohort.netty.codec;
