package dev.cohort.offline.mascot;

import dev.cohort.field.Field;
import dev.cohort.offline.ot.OtBatch;
import dev.cohort.random.AesCtrPrg;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import java.math.BigInteger;

/**
 * Correlated oblivious product evaluation [KOS16, Π_COPE] between this party and every peer, in
 * both roles: as the holder of a MAC key share Δ = α_i it obtains, for each value x a peer
 * authenticates, q = t + Δ·x, while that peer obtains t; neither learns the other's input.
 *
 * <p>Set-up (once): k = bitLength(p) base OTs per ordered pair, the key holder the receiver with
 * the bits Δ_l of its key share as choice bits. The sender keeps both keys k0_l, k1_l, the receiver
 * k_(Δ_l). Each key seeds an AES-CTR stream that lives as long as this object.
 *
 * <p>Extend (per batch of m values x): for each bit l the sender draws t0_l = PRG(k0_l) and t1_l =
 * PRG(k1_l) (m elements each) and sends u_l = t0_l − t1_l + x; the receiver draws t_l =
 * PRG(k_(Δ_l)) and sets q_l = t_l + Δ_l·u_l = t0_l + Δ_l·x. Then t = Σ 2^l t0_l and q = Σ 2^l q_l =
 * t + Δ·x. Cost per value and ordered pair: k elements sent, 2k drawn by the sender and k by the
 * receiver. A sender that sends inconsistent rows u_l (another x in some rows) makes q wrong by Σ
 * 2^l Δ_l·e_l: caught by the authentication check ({@link Authentication}) unless it guessed the
 * bits Δ_l it touched, which leaks those bits at the price of being caught with probability 1/2 per
 * bit — the leakage the MASCOT proof accounts for.
 *
 * <p>Layout of the rows sent to a peer: blocks of {@link #BLOCK} values, within a block row l then
 * value, so that both sides draw and sum one block of rows at a time (Σ 2^l as {@link
 * Field#sumRows} of powers of two, rotations over 2^127 − 1).
 */
final class Cope {

  static final int BLOCK = 512;

  private final Field field;
  private final int words;
  private final int self;
  private final int parties;
  private final int k;
  private final long[] alpha;
  private final long[] powers; // 2^l, l < k
  private final long[] bits; // the bits of α_i, packed
  private final Prg[][] zero; // [peer][l]: as sender
  private final Prg[][] one;
  private final Prg[][] chosen; // [peer][l]: as receiver

  /**
   * COPE of {@code self} with key share {@code alpha}, from the base OTs {@code base} ({@link
   * #bitLength} per ordered pair, choice bits from {@link #choiceBits}).
   */
  Cope(Field field, int self, int parties, long[] alpha, OtBatch base) {
    this.field = field;
    this.words = field.words();
    this.self = self;
    this.parties = parties;
    this.k = field.bitLength();
    this.alpha = alpha.clone();
    this.powers = powersOfTwo(field, k);
    this.bits = choiceBits(alpha, k);
    this.zero = new Prg[parties][];
    this.one = new Prg[parties][];
    this.chosen = new Prg[parties][];
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      zero[p] = streams(base.zero()[p], k);
      one[p] = streams(base.one()[p], k);
      chosen[p] = streams(base.received()[p], k);
    }
  }

  /** The packed bits of the key share {@code alpha}: the choice bits of the base OTs. */
  static long[] choiceBits(long[] alpha, int k) {
    long[] out = new long[(k + 63) >>> 6];
    System.arraycopy(alpha, 0, out, 0, Math.min(alpha.length, out.length));
    return out;
  }

  static long[] powersOfTwo(Field field, int k) {
    long[] powers = field.alloc(k);
    for (int l = 0; l < k; l++) {
      field.encode(BigInteger.ONE.shiftLeft(l), powers, l);
    }
    return powers;
  }

  private static Prg[] streams(long[] keys, int k) {
    Prg[] prgs = new Prg[k];
    byte[] key = new byte[16];
    for (int l = 0; l < k; l++) {
      for (int b = 0; b < 8; b++) {
        key[b] = (byte) (keys[2 * l] >>> (8 * b));
        key[8 + b] = (byte) (keys[2 * l + 1] >>> (8 * b));
      }
      prgs[l] = new AesCtrPrg(key, 0);
    }
    return prgs;
  }

  /**
   * Writes the rows u_l for this party's values {@code x} (m elements) to every peer and returns
   * this party's MAC share of them: α_i·x − Σ_peers t.
   */
  long[] send(long[] x, int m, Outbox out) {
    long[] mac = field.alloc(m);
    long[] t0 = field.alloc(k * Math.min(m, BLOCK));
    long[] t1 = field.alloc(k * Math.min(m, BLOCK));
    long[] t = field.alloc(Math.min(m, BLOCK));
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      for (int s = 0; s < m; s += BLOCK) {
        int len = Math.min(BLOCK, m - s);
        for (int l = 0; l < k; l++) {
          field.random(zero[p][l], t0, l * len, len);
          field.random(one[p][l], t1, l * len, len);
          field.sub(t0, l * len, t1, l * len, t1, l * len, len);
          field.add(t1, l * len, x, s, t1, l * len, len);
        }
        out.write(p, t1, 0, k * len * words);
        field.sumRows(t0, 0, k, len, powers, t, 0);
        field.add(mac, s, t, 0, mac, s, len);
      }
    }
    long[] own = field.alloc(m);
    field.scale(x, 0, alpha, 0, own, 0, m);
    field.sub(own, 0, mac, 0, mac, 0, m);
    return mac;
  }

  /** Reads {@code owner}'s rows for m values and returns this party's MAC share q of them. */
  long[] receive(int owner, int m, Inbox in) {
    long[] q = field.alloc(m);
    long[] rows = field.alloc(k * Math.min(m, BLOCK));
    long[] u = field.alloc(k * Math.min(m, BLOCK));
    for (int s = 0; s < m; s += BLOCK) {
      int len = Math.min(BLOCK, m - s);
      in.read(owner, u, 0, k * len * words);
      for (int l = 0; l < k; l++) {
        field.random(chosen[owner][l], rows, l * len, len);
        if ((bits[l >>> 6] >>> (l & 63) & 1) != 0) {
          field.add(rows, l * len, u, l * len, rows, l * len, len);
        }
      }
      field.sumRows(rows, 0, k, len, powers, q, s);
    }
    return q;
  }

  /** k = the bit length of the field: base OTs per ordered pair, rows per value. */
  static int bitLength(Field field) {
    return field.bitLength();
  }
}
