package dev.cohort.suite;

import java.util.List;

/**
 * One party's shares of a vector of secrets, as columns: {@code share} holds the packed field
 * elements of the shares, {@code mac} the packed MAC shares for suites that authenticate values
 * (null otherwise). There is never an object per element.
 */
public final class Shares {

  public final int length;
  public final long[] share;
  public final long[] mac;

  public Shares(int length, long[] share, long[] mac) {
    this.length = length;
    this.share = share;
    this.mac = mac;
  }

  public boolean hasMac() {
    return mac != null;
  }

  /** Elements {@code [from, from + count)} as new arrays. */
  public Shares slice(int from, int count, int words) {
    long[] s = new long[count * words];
    System.arraycopy(share, from * words, s, 0, s.length);
    long[] m = null;
    if (mac != null) {
      m = new long[count * words];
      System.arraycopy(mac, from * words, m, 0, m.length);
    }
    return new Shares(count, s, m);
  }

  /** The concatenation of {@code parts}; returns the only part itself when there is one. */
  public static Shares concat(List<Shares> parts, int words) {
    if (parts.size() == 1) {
      return parts.get(0);
    }
    int total = 0;
    boolean macs = parts.get(0).mac != null;
    for (Shares p : parts) {
      total += p.length;
    }
    long[] s = new long[total * words];
    long[] m = macs ? new long[total * words] : null;
    int at = 0;
    for (Shares p : parts) {
      System.arraycopy(p.share, 0, s, at, p.length * words);
      if (macs) {
        System.arraycopy(p.mac, 0, m, at, p.length * words);
      }
      at += p.length * words;
    }
    return new Shares(total, s, m);
  }
}
