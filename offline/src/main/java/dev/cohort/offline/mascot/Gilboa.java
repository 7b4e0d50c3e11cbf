package dev.cohort.offline.mascot;

import dev.cohort.field.Field;
import dev.cohort.offline.ot.OtBatch;
import dev.cohort.offline.ot.PairwiseOts;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;

/**
 * Gilboa's multiplication by OT [Gil99, KOS16 Π_Triple step 2]: for every ordered pair, the
 * sender's vector a ∈ F^τ (per triple) and the receiver's b ∈ F become additive shares of a·b, with
 * k = bitLength(p) random OTs per triple, the receiver choosing with the bits b_l of b.
 *
 * <p>Each OT key is expanded into τ elements ({@link KeyExpansion}): the sender has v0_l, v1_l, the
 * receiver w_l = v(b_l)_l. The sender sends the correction d_l = v0_l − v1_l + a; the receiver sets
 * w_l + b_l·d_l = v0_l + b_l·a. Then the sender's share is −Σ 2^l v0_l and the receiver's Σ 2^l
 * (w_l + b_l·d_l) = Σ 2^l v0_l + b·a. A wrong correction changes the receiver's share by Σ 2^l
 * b_l·e_l: a wrong triple that the sacrifice catches, and whose passing would leak bits of b — what
 * the combination of τ candidates hides.
 *
 * <p>OT index of bit l of triple t, in blocks of {@link Cope#BLOCK} triples starting at s of length
 * len: s·k + l·len + (t − s), so that a block's expansions are k rows of len·τ elements, the rows
 * that {@link Field#sumRows} composes with powers of two.
 */
final class Gilboa {

  private final Field field;
  private final int words;
  private final int self;
  private final int parties;
  private final int k;
  private final long[] powers;
  private final KeyExpansion expansion;

  Gilboa(Field field, int self, int parties, KeyExpansion expansion) {
    this.field = field;
    this.words = field.words();
    this.self = self;
    this.parties = parties;
    this.k = field.bitLength();
    this.powers = Cope.powersOfTwo(field, k);
    this.expansion = expansion;
  }

  /** A multiplication in flight: the OT keys, and this party's share of the cross terms. */
  final class Product {
    final int m;
    final int tau;
    final long[] b;
    final OtBatch ots;
    final long[] c; // this party's share of a·b, τ per triple

    Product(int m, int tau, long[] b, OtBatch ots, long[] c) {
      this.m = m;
      this.tau = tau;
      this.b = b;
      this.ots = ots;
      this.c = c;
    }

    /** Reads every peer's corrections and adds this party's receiver shares; returns c. */
    long[] finish(Inbox in) {
      int block = Math.min(m, Cope.BLOCK);
      long[] w = field.alloc(k * block * tau);
      long[] d = field.alloc(k * block * tau);
      long[] sum = field.alloc(block * tau);
      for (int p = 0; p < parties; p++) {
        if (p == self) {
          continue;
        }
        for (int s = 0; s < m; s += Cope.BLOCK) {
          int len = Math.min(Cope.BLOCK, m - s);
          int row = len * tau;
          expansion.expand(ots.received()[p], s * k, k * len, tau, w, 0);
          in.read(p, d, 0, k * row * words);
          for (int l = 0; l < k; l++) {
            for (int t = 0; t < len; t++) {
              long mask = -((b[(s + t) * words + (l >>> 6)] >>> (l & 63)) & 1);
              int at = (l * row + t * tau) * words;
              for (int i = 0; i < tau * words; i++) {
                d[at + i] &= mask;
              }
            }
          }
          field.add(w, 0, d, 0, w, 0, k * row);
          field.sumRows(w, 0, k, row, powers, sum, 0);
          field.add(c, s * tau, sum, 0, c, s * tau, row);
        }
      }
      return c;
    }
  }

  /**
   * Multiplies this party's a (τ·m elements, τ per triple) by every peer's b and this party's b (m
   * elements) by every peer's a: runs the OTs, writes the corrections to every peer and returns the
   * product in flight, whose c already holds a·b and the sender shares.
   */
  Product start(PairwiseOts ots, long[] a, long[] b, int m, int tau, Outbox out) {
    long[] choices = new long[(k * m + 63) >>> 6];
    for (int s = 0; s < m; s += Cope.BLOCK) {
      int len = Math.min(Cope.BLOCK, m - s);
      for (int l = 0; l < k; l++) {
        for (int t = 0; t < len; t++) {
          long bit = (b[(s + t) * words + (l >>> 6)] >>> (l & 63)) & 1;
          int j = s * k + l * len + t;
          choices[j >>> 6] |= bit << (j & 63);
        }
      }
    }
    long[][] all = new long[parties][];
    for (int p = 0; p < parties; p++) {
      all[p] = p == self ? null : choices;
    }
    OtBatch batch = ots.transfer(k * m, all);
    long[] c = field.alloc(tau * m);
    long[] bs = field.alloc(tau * m);
    for (int t = 0; t < m; t++) {
      for (int h = 0; h < tau; h++) {
        System.arraycopy(b, t * words, bs, (t * tau + h) * words, words);
      }
    }
    field.mul(a, 0, bs, 0, c, 0, tau * m);
    int block = Math.min(m, Cope.BLOCK);
    long[] v0 = field.alloc(k * block * tau);
    long[] v1 = field.alloc(k * block * tau);
    long[] sum = field.alloc(block * tau);
    for (int p = 0; p < parties; p++) {
      if (p == self) {
        continue;
      }
      for (int s = 0; s < m; s += Cope.BLOCK) {
        int len = Math.min(Cope.BLOCK, m - s);
        int row = len * tau;
        expansion.expand(batch.zero()[p], s * k, k * len, tau, v0, 0);
        expansion.expand(batch.one()[p], s * k, k * len, tau, v1, 0);
        for (int l = 0; l < k; l++) {
          field.sub(v0, l * row, v1, l * row, v1, l * row, row);
          field.add(v1, l * row, a, s * tau, v1, l * row, row);
        }
        out.write(p, v1, 0, k * row * words);
        field.sumRows(v0, 0, k, row, powers, sum, 0);
        field.sub(c, s * tau, sum, 0, c, s * tau, row);
      }
    }
    return new Product(m, tau, b, batch, c);
  }
}
