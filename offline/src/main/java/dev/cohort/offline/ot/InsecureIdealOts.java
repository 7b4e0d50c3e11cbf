package dev.cohort.offline.ot;

import dev.cohort.random.Prg;

/**
 * An ideal OT functionality for tests and benchmarks: <b>INSECURE</b>. The keys of the c-th call
 * from sender S to receiver R come from a PRG keyed by a seed every party shares, so each receiver
 * computes both keys and keeps the chosen one (a real receiver learns one key; this one could learn
 * both), and nothing is sent: a test of what is built on OTs runs without their cost, and a
 * benchmark with it measures the protocol above the OTs, never the OTs themselves.
 */
public final class InsecureIdealOts implements PairwiseOts {

  private final long seed;
  private final long domain; // separates base OTs from the extension
  private final int self;
  private final int parties;
  private long calls;

  public InsecureIdealOts(long seed, long domain, int self, int parties) {
    this.seed = seed;
    this.domain = domain;
    this.self = self;
    this.parties = parties;
  }

  @Override
  public OtBatch transfer(int count, long[][] choices) {
    long call = calls++;
    long[][] zero = new long[parties][];
    long[][] one = new long[parties][];
    long[][] received = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      zero[p] = new long[2 * count];
      one[p] = new long[2 * count];
      keys(self, p, call, zero[p], one[p]);
      long[] z = new long[2 * count];
      long[] o = new long[2 * count];
      keys(p, self, call, z, o);
      received[p] = new long[2 * count];
      for (int j = 0; j < count; j++) {
        long[] from = ((choices[p][j >>> 6] >>> (j & 63)) & 1) == 0 ? z : o;
        received[p][2 * j] = from[2 * j];
        received[p][2 * j + 1] = from[2 * j + 1];
      }
    }
    return new OtBatch(zero, one, received);
  }

  private void keys(int sender, int receiver, long call, long[] zero, long[] one) {
    byte[] key = new byte[16];
    long a = seed ^ (domain << 48);
    long b = ((long) sender << 40) ^ ((long) receiver << 20) ^ call;
    for (int i = 0; i < 8; i++) {
      key[i] = (byte) (a >>> (8 * i));
      key[8 + i] = (byte) (b >>> (8 * i));
    }
    Prg prg = Prg.fromKey(key, 0);
    prg.fill(zero, 0, zero.length);
    prg.fill(one, 0, one.length);
  }
}
