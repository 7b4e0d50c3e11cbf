package dev.cohort.suite;

import java.util.Arrays;

/**
 * The words one party sends each peer in one round. Every gate of the round appends to the same
 * per-peer buffer, so the whole round leaves as one frame per peer. Buffers are reused across
 * rounds: a frame's words stay as written until the next round's {@link #clear} (the channel only
 * reads them), so a protocol may read back what it wrote while its round receives.
 */
public final class Outbox {

  private final int self;
  private final long[][] buffers;
  private final int[] lengths;

  public Outbox(int self, int parties) {
    this.self = self;
    this.buffers = new long[parties][];
    this.lengths = new int[parties];
    for (int p = 0; p < parties; p++) {
      buffers[p] = new long[64];
    }
  }

  /** Appends {@code n} words of {@code src} from {@code off} to the frame for {@code peer}. */
  public void write(int peer, long[] src, int off, int n) {
    long[] buffer = room(peer, n);
    System.arraycopy(src, off, buffer, lengths[peer], n);
    lengths[peer] += n;
  }

  /**
   * Appends {@code n} words to the frame for {@code peer}, to be written in place later, and
   * returns the offset of the first in {@link #buffer(int)}: a kernel split over threads fills its
   * ranges of one message at once, in the order the message has, without a copy. The buffer stays
   * the same array until the next write to {@code peer}; the words must all be written before the
   * frame leaves.
   */
  public int reserve(int peer, int n) {
    room(peer, n);
    int at = lengths[peer];
    lengths[peer] += n;
    return at;
  }

  /** Appends one word to the frame for {@code peer}. */
  public void write(int peer, long word) {
    long[] buffer = room(peer, 1);
    buffer[lengths[peer]++] = word;
  }

  private long[] room(int peer, int n) {
    if (peer == self) {
      throw new IllegalArgumentException("a party does not send to itself (P" + peer + ")");
    }
    long[] buffer = buffers[peer];
    int need = lengths[peer] + n;
    if (need > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(need, buffer.length * 2));
      buffers[peer] = buffer;
    }
    return buffer;
  }

  public int parties() {
    return buffers.length;
  }

  public long[] buffer(int peer) {
    return buffers[peer];
  }

  public int length(int peer) {
    return lengths[peer];
  }

  /** Empties every frame, keeping the buffers. */
  public void clear() {
    Arrays.fill(lengths, 0);
  }
}
