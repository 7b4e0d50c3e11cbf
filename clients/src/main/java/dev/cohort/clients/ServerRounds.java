package dev.cohort.clients;

import dev.cohort.net.Channel;
import java.util.Arrays;

/**
 * The rounds the servers run among themselves outside the engine, over the mesh channel: each is
 * one {@link Channel#exchange}, the same frame to every peer.
 */
final class ServerRounds {

  private final Channel channel;
  private final int n;
  private final int me;

  ServerRounds(Channel channel) {
    this.channel = channel;
    this.n = channel.parties();
    this.me = channel.myId();
  }

  int myId() {
    return me;
  }

  int parties() {
    return n;
  }

  /** Sends {@code frame} to every peer; returns every server's frame, this one's included. */
  long[][] all(long[] frame) {
    long[][] out = new long[n][];
    int[] lengths = new int[n];
    for (int p = 0; p < n; p++) {
      out[p] = frame;
      lengths[p] = frame.length;
    }
    long[][] in = channel.exchange(out, lengths);
    in[me] = frame;
    return in;
  }

  /** What the servers agreed when a session closed. */
  record Closed(int[] candidates, byte[] seed) {}

  /**
   * Round 1 of a session's close: every server sends the session id, its part of the coefficient
   * seed and the ids it received (ascending). The candidates are the ids every server received; the
   * seed is the XOR of the parts. Throws when a server is at another session.
   */
  Closed close(long session, int[] received, long[] seedPart) {
    long[] frame = new long[4 + received.length];
    frame[0] = session;
    frame[1] = seedPart[0];
    frame[2] = seedPart[1];
    frame[3] = received.length;
    for (int k = 0; k < received.length; k++) {
      frame[4 + k] = received[k];
    }
    long[][] all = all(frame);
    long[] seed = new long[2];
    int[] candidates = received;
    for (int p = 0; p < n; p++) {
      long[] f = all[p];
      if (f.length < 4 || f[0] != session || f[3] != f.length - 4L) {
        throw new IllegalStateException(
            "server "
                + p
                + " closed "
                + (f.length < 4 ? "with a malformed frame" : "session " + f[0])
                + " while this server closed session "
                + session
                + "; the servers are out of step");
      }
      seed[0] ^= f[1];
      seed[1] ^= f[2];
      if (p != me) {
        candidates = intersect(candidates, f, 4);
      }
    }
    byte[] bytes = new byte[16];
    for (int i = 0; i < 16; i++) {
      bytes[i] = (byte) (seed[i >> 3] >>> (8 * (i & 7)));
    }
    return new Closed(candidates, bytes);
  }

  /** The ids of ascending {@code a} that also appear in {@code f[from..]}. */
  static int[] intersect(int[] a, long[] f, int from) {
    int[] out = new int[a.length];
    int k = 0;
    int j = from;
    for (int id : a) {
      while (j < f.length && f[j] < id) {
        j++;
      }
      if (j < f.length && f[j] == id) {
        out[k++] = id;
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** A round in which every server announces {@code value}; throws unless all announce it. */
  void agreeOn(String what, long value) {
    long[][] all = all(new long[] {value});
    for (int p = 0; p < n; p++) {
      if (all[p].length != 1 || all[p][0] != value) {
        throw new IllegalStateException(
            "server "
                + p
                + " announced "
                + what
                + " "
                + (all[p].length == 1 ? String.valueOf(all[p][0]) : "malformed")
                + ", this server "
                + value);
      }
    }
  }

  /** A round in which every server announces a value; returns all of them. */
  long[] announce(long value) {
    long[][] all = all(new long[] {value});
    long[] out = new long[n];
    for (int p = 0; p < n; p++) {
      if (all[p].length != 1) {
        throw new IllegalStateException("server " + p + " sent a malformed announcement");
      }
      out[p] = all[p][0];
    }
    return out;
  }
}
