package dev.cohort.net;

/** Per-peer counters of one channel; index = peer. Not thread-safe: one party thread owns it. */
public final class TrafficStats {

  public final long[] bytesSent;
  public final long[] framesSent;
  public final long[] bytesReceived;
  public final long[] framesReceived;

  public TrafficStats(int parties) {
    bytesSent = new long[parties];
    framesSent = new long[parties];
    bytesReceived = new long[parties];
    framesReceived = new long[parties];
  }

  public void sent(int peer, long bytes) {
    bytesSent[peer] += bytes;
    framesSent[peer]++;
  }

  public void received(int peer, long bytes) {
    bytesReceived[peer] += bytes;
    framesReceived[peer]++;
  }

  public TrafficStats copy() {
    TrafficStats c = new TrafficStats(bytesSent.length);
    System.arraycopy(bytesSent, 0, c.bytesSent, 0, bytesSent.length);
    System.arraycopy(framesSent, 0, c.framesSent, 0, framesSent.length);
    System.arraycopy(bytesReceived, 0, c.bytesReceived, 0, bytesReceived.length);
    System.arraycopy(framesReceived, 0, c.framesReceived, 0, framesReceived.length);
    return c;
  }

  /** The counters accumulated since {@code earlier}. */
  public TrafficStats since(TrafficStats earlier) {
    TrafficStats c = copy();
    for (int p = 0; p < bytesSent.length; p++) {
      c.bytesSent[p] -= earlier.bytesSent[p];
      c.framesSent[p] -= earlier.framesSent[p];
      c.bytesReceived[p] -= earlier.bytesReceived[p];
      c.framesReceived[p] -= earlier.framesReceived[p];
    }
    return c;
  }

  public long totalBytesSent() {
    long t = 0;
    for (long b : bytesSent) {
      t += b;
    }
    return t;
  }

  public long totalFramesSent() {
    long t = 0;
    for (long f : framesSent) {
      t += f;
    }
    return t;
  }
}
