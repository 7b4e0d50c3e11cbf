package dev.cohort.spdz;

import dev.cohort.field.Field;
import dev.cohort.field.Mersenne127;
import dev.cohort.field.Mersenne61;
import dev.cohort.suite.Shares;

/**
 * Local operations on SPDZ sharings ⟨x⟩ = (x_i, m_i), Σ x_i = x and Σ m_i = α·x: linear maps act on
 * both columns; a public constant c is added to P0's value share only, while every party adds α_i·c
 * to its MAC share. Never mutates its arguments.
 */
final class SpdzSharing {

  private final Field field;
  private final int words;
  private final boolean first; // P0 holds the public part of a sharing
  private final long[] alpha; // this party's MAC key share α_i

  SpdzSharing(Field field, int party, long[] alpha) {
    this.field = field;
    this.words = field.words();
    this.first = party == 0;
    this.alpha = alpha;
  }

  /** Whether this party holds the public part of a sharing (P0). */
  boolean holdsPublic() {
    return first;
  }

  /** This party's MAC key share α_i (not a copy: never write to it). */
  long[] alphaShare() {
    return alpha;
  }

  Shares constant(long[] values, int m) {
    long[] share = first ? copy(values, m) : field.alloc(m);
    long[] mac = field.alloc(m);
    field.scale(values, 0, alpha, 0, mac, 0, m);
    return new Shares(m, share, mac);
  }

  Shares add(Shares a, Shares b) {
    long[] share = field.alloc(a.length);
    long[] mac = field.alloc(a.length);
    field.add(a.share, 0, b.share, 0, share, 0, a.length);
    field.add(a.mac, 0, b.mac, 0, mac, 0, a.length);
    return new Shares(a.length, share, mac);
  }

  Shares sub(Shares a, Shares b) {
    long[] share = field.alloc(a.length);
    long[] mac = field.alloc(a.length);
    field.sub(a.share, 0, b.share, 0, share, 0, a.length);
    field.sub(a.mac, 0, b.mac, 0, mac, 0, a.length);
    return new Shares(a.length, share, mac);
  }

  Shares negate(Shares a) {
    long[] share = field.alloc(a.length);
    long[] mac = field.alloc(a.length);
    field.negate(a.share, 0, share, 0, a.length);
    field.negate(a.mac, 0, mac, 0, a.length);
    return new Shares(a.length, share, mac);
  }

  /** {@code a[i] + c} for the one public element {@code c[co]}. */
  Shares addConstant(Shares a, long[] c, int co) {
    int m = a.length;
    long[] share = copy(a.share, m);
    if (first) {
      field.addScalar(a.share, 0, c, co, share, 0, m);
    }
    long[] alphaC = field.alloc(1);
    field.mul(alpha, 0, c, co, alphaC, 0, 1);
    long[] mac = field.alloc(m);
    field.addScalar(a.mac, 0, alphaC, 0, mac, 0, m);
    return new Shares(m, share, mac);
  }

  /** {@code a[i] + c[i]} for a public vector {@code c} (element offset {@code co}). */
  Shares addPublic(Shares a, long[] c, int co) {
    int m = a.length;
    if (co == 0 && field instanceof Mersenne61) {
      long[] share = field.alloc(m);
      long[] mac = field.alloc(m);
      SpdzKernels.addPublic61(a.share, a.mac, c, m, alpha[0], first, share, mac);
      return new Shares(m, share, mac);
    }
    if (co == 0 && field instanceof Mersenne127) {
      long[] share = field.alloc(m);
      long[] mac = field.alloc(m);
      SpdzKernels.addPublic127(a.share, a.mac, c, m, alpha, first, share, mac);
      return new Shares(m, share, mac);
    }
    long[] share = copy(a.share, m);
    if (first) {
      field.add(a.share, 0, c, co, share, 0, m);
    }
    long[] mac = copy(a.mac, m);
    field.scaleAdd(c, co, alpha, 0, mac, 0, m);
    return new Shares(m, share, mac);
  }

  Shares scale(Shares a, long[] c, int co) {
    long[] share = field.alloc(a.length);
    long[] mac = field.alloc(a.length);
    field.scale(a.share, 0, c, co, share, 0, a.length);
    field.scale(a.mac, 0, c, co, mac, 0, a.length);
    return new Shares(a.length, share, mac);
  }

  Shares sum(Shares a) {
    long[] share = field.alloc(1);
    long[] mac = field.alloc(1);
    field.sum(a.share, 0, a.length, share, 0);
    field.sum(a.mac, 0, a.length, mac, 0);
    return new Shares(1, share, mac);
  }

  private long[] copy(long[] a, int m) {
    long[] out = field.alloc(m);
    System.arraycopy(a, 0, out, 0, m * words);
    return out;
  }
}
