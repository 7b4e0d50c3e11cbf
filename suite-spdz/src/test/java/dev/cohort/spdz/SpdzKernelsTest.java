package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.field.Mersenne61;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Shares;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The fused kernels against the generic field kernels (the oracle) on random columns from fixed
 * seeds, with the edge values 0, 1, p − 2 and p − 1 planted at the start of every column.
 */
class SpdzKernelsTest {

  private static final int M = 1333; // odd, more than the edge values, past one kernel block

  /** m random elements; element k of the edge list at position (k + shift) mod m. */
  private static long[] column(Field f, Prg prg, int m, int shift) {
    long[] x = f.alloc(m);
    f.random(prg, x, 0, m);
    BigInteger p = f.modulus();
    BigInteger two64 = BigInteger.ONE.shiftLeft(64);
    BigInteger[] edges = {
      BigInteger.ZERO,
      BigInteger.ONE,
      p.subtract(BigInteger.TWO),
      p.subtract(BigInteger.ONE),
      two64.subtract(BigInteger.ONE).mod(p), // a low word with all bits set
      two64.mod(p),
      p.subtract(two64).mod(p), // all bits set but bit 64, where 2^127 − 1 > 2^64
      p.shiftRight(1) // 2^126 − 1
    };
    for (int k = 0; k < edges.length; k++) {
      f.encode(edges[k], x, (k + shift) % m);
    }
    return x;
  }

  private static Shares shares(Field f, Prg prg, int m, int shift) {
    return new Shares(m, column(f, prg, m, shift), column(f, prg, m, shift + 1));
  }

  @ParameterizedTest
  @CsvSource({"m61", "m127"})
  void beaver_randomAndEdgeValues_matchesFieldKernels(String name) {
    Field f = Fields.byName(name);
    Prg prg = Prg.seeded(42);
    long[] opened = f.alloc(2 * M);
    System.arraycopy(column(f, prg, M, 0), 0, opened, 0, M * f.words());
    System.arraycopy(column(f, prg, M, 2), 0, opened, M * f.words(), M * f.words());
    Triples t = new Triples(shares(f, prg, M, 1), shares(f, prg, M, 3), shares(f, prg, M, 0));
    Shares y = shares(f, prg, M, 2);
    if (f.words() == 2) {
      // d = 2^64 + 3, e = 2^64 + 1, y = a = c = p − 1: the third word of d·y + e·a + c is then
      // 2^64 − 1 before the carries of the second add to it, a carry random values never reach.
      BigInteger pm1 = f.modulus().subtract(BigInteger.ONE);
      BigInteger two64 = BigInteger.ONE.shiftLeft(64);
      f.encode(two64.add(BigInteger.valueOf(3)), opened, 7);
      f.encode(two64.add(BigInteger.ONE), opened, M + 7);
      for (long[] col : new long[][] {y.share, y.mac, t.a().share, t.a().mac, t.c().share}) {
        f.encode(pm1, col, 7);
      }
    }

    long[] share = f.alloc(M);
    long[] mac = f.alloc(M);
    if (f.words() == 1) {
      SpdzKernels.beaver61(opened, M, t, y, share, mac);
    } else {
      SpdzKernels.beaver127(opened, M, t, y, share, mac);
    }

    // c + d·y + e·a on both columns, by the field's own kernels
    long[] x = f.alloc(M);
    long[] wantShare = t.c().share.clone();
    f.mul(opened, 0, y.share, 0, x, 0, M);
    f.add(wantShare, 0, x, 0, wantShare, 0, M);
    f.mul(opened, M, t.a().share, 0, x, 0, M);
    f.add(wantShare, 0, x, 0, wantShare, 0, M);
    long[] wantMac = t.c().mac.clone();
    f.mul(opened, 0, y.mac, 0, x, 0, M);
    f.add(wantMac, 0, x, 0, wantMac, 0, M);
    f.mul(opened, M, t.a().mac, 0, x, 0, M);
    f.add(wantMac, 0, x, 0, wantMac, 0, M);
    assertArrayEquals(wantShare, share);
    assertArrayEquals(wantMac, mac);
  }

  /**
   * Every combination of edge values for d, e, y, a and c (8^5 elements, so every carry and fold of
   * the sums meets its extremes), against BigInteger arithmetic mod p.
   */
  @Test
  void beaver127_everyCombinationOfEdgeValues_matchesBigInteger() {
    Field f = Fields.byName("m127");
    BigInteger p = f.modulus();
    BigInteger two64 = BigInteger.ONE.shiftLeft(64);
    BigInteger[] edges = {
      BigInteger.ZERO,
      BigInteger.ONE,
      p.subtract(BigInteger.TWO),
      p.subtract(BigInteger.ONE),
      two64.subtract(BigInteger.ONE), // low word all ones, high word 0
      two64, // low word 0, high word 1
      p.subtract(two64), // all bits but bit 64
      BigInteger.ONE.shiftLeft(126).add(BigInteger.ONE.shiftLeft(63)) // both top bits of the words
    };
    int k = edges.length;
    int m = k * k * k * k * k;
    long[] opened = f.alloc(2 * m);
    Shares y = new Shares(m, f.alloc(m), f.alloc(m));
    Shares a = new Shares(m, f.alloc(m), f.alloc(m));
    Shares c = new Shares(m, f.alloc(m), f.alloc(m));
    for (int i = 0; i < m; i++) {
      int n = i;
      f.encode(edges[n % k], opened, i);
      f.encode(edges[(n /= k) % k], opened, m + i);
      f.encode(edges[(n /= k) % k], y.share, i);
      f.encode(edges[(n /= k) % k], a.share, i);
      f.encode(edges[(n /= k) % k], c.share, i);
      f.encode(edges[(i * 5 + 3) % k], y.mac, i); // the MAC column: other combinations
      f.encode(edges[(i * 3 + 1) % k], a.mac, i);
      f.encode(edges[(i * 7 + 2) % k], c.mac, i);
    }
    Triples t = new Triples(a, new Shares(m, f.alloc(m), f.alloc(m)), c);

    long[] share = f.alloc(m);
    long[] mac = f.alloc(m);
    SpdzKernels.beaver127(opened, m, t, y, share, mac);

    for (int i = 0; i < m; i++) {
      BigInteger d = f.toBigInteger(opened, i);
      BigInteger e = f.toBigInteger(opened, m + i);
      BigInteger wantShare =
          d.multiply(f.toBigInteger(y.share, i))
              .add(e.multiply(f.toBigInteger(a.share, i)))
              .add(f.toBigInteger(c.share, i))
              .mod(p);
      BigInteger wantMac =
          d.multiply(f.toBigInteger(y.mac, i))
              .add(e.multiply(f.toBigInteger(a.mac, i)))
              .add(f.toBigInteger(c.mac, i))
              .mod(p);
      assertEquals(wantShare, f.toBigInteger(share, i), "share of element " + i);
      assertEquals(wantMac, f.toBigInteger(mac, i), "MAC of element " + i);
    }
  }

  @ParameterizedTest
  @CsvSource({"m61", "m127"})
  void macSums_randomAndEdgeValues_matchInnerProducts(String name) {
    Field f = Fields.byName(name);
    Prg prg = Prg.seeded(7);
    // Over 2^61 − 1 field elements; over 2^127 − 1 words read as unsigned, the edges included.
    long[] r = f.words() == 1 ? column(f, prg, M, 1) : new long[M];
    if (f.words() == 2) {
      prg.fill(r, 0, M);
      long[] edges = {0, 1, -1L, Long.MIN_VALUE, Long.MAX_VALUE};
      System.arraycopy(edges, 0, r, 1, edges.length);
    }
    long[] values = column(f, prg, M + 5, 0);
    long[] macs = column(f, prg, M + 5, 3);
    long[] acc = new long[2 * f.words()];
    // Two calls on overlapping ranges: the sums carry over between calls.
    if (f.words() == 1) {
      SpdzKernels.macSums61(r, values, macs, 5, M, acc);
      SpdzKernels.macSums61(r, values, macs, 0, M, acc);
    } else {
      SpdzKernels.macSumsShort127(r, values, macs, 5, M, acc);
      SpdzKernels.macSumsShort127(r, values, macs, 0, M, acc);
    }
    BigInteger p = f.modulus();
    BigInteger v = BigInteger.ZERO;
    BigInteger mu = BigInteger.ZERO;
    for (int from : new int[] {5, 0}) {
      for (int j = 0; j < M; j++) {
        BigInteger rj =
            f.words() == 1 ? f.toBigInteger(r, j) : new BigInteger(Long.toUnsignedString(r[j]));
        v = v.add(rj.multiply(f.toBigInteger(values, from + j)));
        mu = mu.add(rj.multiply(f.toBigInteger(macs, from + j)));
      }
    }
    assertEquals(v.mod(p), f.toBigInteger(acc, 0));
    assertEquals(mu.mod(p), f.toBigInteger(acc, 1));
  }

  /**
   * The largest terms throughout, r = 2^64 − 1 and values and MAC shares p − 1 and p − 2, many of
   * them: every 32-bit half sum of the kernel grows at its fastest.
   */
  @Test
  void macSums127_largestTermsThroughout_matchInnerProducts() {
    Field f = Fields.byName("m127");
    int n = 20_000;
    BigInteger p = f.modulus();
    long[] r = new long[n];
    long[] values = f.alloc(n);
    long[] macs = f.alloc(n);
    java.util.Arrays.fill(r, -1L);
    for (int j = 0; j < n; j++) {
      f.encode(p.subtract(BigInteger.ONE), values, j);
      f.encode(p.subtract(BigInteger.valueOf(1 + j % 2)), macs, j);
    }
    r[3] = 0;
    long[] acc = new long[4];
    f.encode(p.subtract(BigInteger.ONE), acc, 0); // a canonical, nonzero start
    f.encode(p.subtract(BigInteger.TWO), acc, 1);

    SpdzKernels.macSumsShort127(r, values, macs, 0, n, acc);

    BigInteger rMax = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    BigInteger v = p.subtract(BigInteger.ONE);
    BigInteger mu = p.subtract(BigInteger.TWO);
    for (int j = 0; j < n; j++) {
      BigInteger rj = j == 3 ? BigInteger.ZERO : rMax;
      v = v.add(rj.multiply(p.subtract(BigInteger.ONE)));
      mu = mu.add(rj.multiply(p.subtract(BigInteger.valueOf(1 + j % 2))));
    }
    assertEquals(v.mod(p), f.toBigInteger(acc, 0));
    assertEquals(mu.mod(p), f.toBigInteger(acc, 1));
  }

  @ParameterizedTest
  @CsvSource({"m61, true", "m61, false", "m127, true", "m127, false"})
  void addPublic_randomAndEdgeValues_matchesFieldKernels(String name, boolean first) {
    Field f = Fields.byName(name);
    Prg prg = Prg.seeded(9);
    Shares a = shares(f, prg, M, 0);
    long[] c = column(f, prg, M, 2);
    long[] alpha = f.alloc(1);
    f.encode(f.modulus().subtract(BigInteger.ONE), alpha, 0); // p − 1: the largest key

    long[] share = f.alloc(M);
    long[] mac = f.alloc(M);
    if (f.words() == 1) {
      SpdzKernels.addPublic61(a.share, a.mac, c, M, alpha[0], first, share, mac);
    } else {
      SpdzKernels.addPublic127(a.share, a.mac, c, M, alpha, first, share, mac);
    }

    long[] wantShare = a.share.clone();
    if (first) {
      f.add(a.share, 0, c, 0, wantShare, 0, M);
    }
    long[] wantMac = a.mac.clone();
    f.scaleAdd(c, 0, alpha, 0, wantMac, 0, M);
    assertArrayEquals(wantShare, share);
    assertArrayEquals(wantMac, mac);
  }

  @Test
  void differences127_randomAndEdgeValues_matchesFieldKernels() {
    Field f = Fields.byName("m127");
    Prg prg = Prg.seeded(11);
    Shares x = shares(f, prg, M, 0);
    Shares y = shares(f, prg, M, 2);
    Triples t = new Triples(shares(f, prg, M, 1), shares(f, prg, M, 3), shares(f, prg, M, 5));
    long[] de = f.alloc(2 * M);
    long[] deMac = f.alloc(2 * M);

    SpdzKernels.differences127(x, y, t, M, de, deMac);
    // d and e into a frame from word 3, off the element grid, in two ranges; words around stay
    long[] frame = new long[3 + 4 * M + 2];
    java.util.Arrays.fill(frame, 42);
    long[] deMac2 = f.alloc(2 * M);
    SpdzKernels.differences127(x, y, t, M, frame, 3, deMac2, 0, 700);
    SpdzKernels.differences127(x, y, t, M, frame, 3, deMac2, 700, M);

    BigInteger p = f.modulus();
    for (int i = 0; i < M; i++) {
      assertEquals(minus(f, x.share, t.a().share, i, p), f.toBigInteger(de, i));
      assertEquals(minus(f, y.share, t.b().share, i, p), f.toBigInteger(de, M + i));
      assertEquals(minus(f, x.mac, t.a().mac, i, p), f.toBigInteger(deMac, i));
      assertEquals(minus(f, y.mac, t.b().mac, i, p), f.toBigInteger(deMac, M + i));
    }
    assertArrayEquals(de, java.util.Arrays.copyOfRange(frame, 3, 3 + 4 * M));
    assertArrayEquals(deMac, deMac2);
    assertArrayEquals(new long[] {42, 42, 42}, java.util.Arrays.copyOf(frame, 3));
    assertArrayEquals(
        new long[] {42, 42}, java.util.Arrays.copyOfRange(frame, 3 + 4 * M, 5 + 4 * M));
  }

  @Test
  void differences61_randomAndEdgeValues_matchesBigIntegerDifferences() {
    Field f = Fields.byName("m61");
    Prg prg = Prg.seeded(12);
    Shares x = shares(f, prg, M, 0);
    Shares y = shares(f, prg, M, 2);
    Triples t = new Triples(shares(f, prg, M, 1), shares(f, prg, M, 3), shares(f, prg, M, 5));
    long[] de = f.alloc(2 * M);
    long[] deMac = f.alloc(2 * M);

    SpdzKernels.differences61(x, y, t, M, de, 0, deMac, 0, M);

    BigInteger p = f.modulus();
    for (int i = 0; i < M; i++) {
      assertEquals(minus(f, x.share, t.a().share, i, p), f.toBigInteger(de, i));
      assertEquals(minus(f, y.share, t.b().share, i, p), f.toBigInteger(de, M + i));
      assertEquals(minus(f, x.mac, t.a().mac, i, p), f.toBigInteger(deMac, i));
      assertEquals(minus(f, y.mac, t.b().mac, i, p), f.toBigInteger(deMac, M + i));
    }
  }

  @Test
  void addChecked61_randomAndEdgeValues_matchesBigIntegerSums() {
    Field f = Fields.byName("m61");
    Prg prg = Prg.seeded(14);
    long[] a = column(f, prg, M, 0);
    long[] b = column(f, prg, M + 3, 4);
    long[] c = column(f, prg, M + 5, 6);
    long[] sum2 = f.alloc(M);
    long[] sum3 = f.alloc(M);

    assertEquals(true, SpdzKernels.addChecked61(a, 0, b, 3, sum2, 0, M));
    assertEquals(true, SpdzKernels.addChecked61(a, 0, b, 3, c, 5, sum3, 0, M));

    BigInteger p = f.modulus();
    for (int i = 0; i < M; i++) {
      BigInteger ab = f.toBigInteger(a, i).add(f.toBigInteger(b, 3 + i));
      assertEquals(ab.mod(p), f.toBigInteger(sum2, i), "element " + i);
      assertEquals(
          ab.add(f.toBigInteger(c, 5 + i)).mod(p), f.toBigInteger(sum3, i), "element " + i);
    }
    b[3 + 7] = Mersenne61.P; // p itself, then a word past 61 bits, are outside the field
    assertEquals(false, SpdzKernels.addChecked61(a, 0, b, 3, sum2, 0, M));
    assertEquals(false, SpdzKernels.addChecked61(a, 0, c, 5, b, 3, sum3, 0, M));
    b[3 + 7] = 0;
    c[5 + 9] = -1L;
    assertEquals(false, SpdzKernels.addChecked61(a, 0, c, 5, sum2, 0, M));
    assertEquals(false, SpdzKernels.addChecked61(a, 0, b, 3, c, 5, sum3, 0, M));
  }

  private static BigInteger minus(Field f, long[] a, long[] b, int i, BigInteger p) {
    return f.toBigInteger(a, i).subtract(f.toBigInteger(b, i)).mod(p);
  }

  @Test
  void addChecked127_randomAndEdgeValues_matchesBigIntegerSums() {
    Field f = Fields.byName("m127");
    Prg prg = Prg.seeded(13);
    long[] a = column(f, prg, M, 0);
    long[] b = column(f, prg, M + 3, 4);
    long[] sum = f.alloc(M);

    assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 6, sum, 0, M));

    BigInteger p = f.modulus();
    for (int i = 0; i < M; i++) {
      BigInteger want = f.toBigInteger(a, i).add(f.toBigInteger(b, 3 + i)).mod(p);
      assertEquals(want, f.toBigInteger(sum, i), "element " + i);
    }
    // in place, as the suite sums a second peer's shares into the first sum
    long[] again = sum.clone();
    assertEquals(true, SpdzKernels.addChecked127(again, 0, b, 6, again, 0, M));
    for (int i = 0; i < M; i++) {
      BigInteger want = f.toBigInteger(sum, i).add(f.toBigInteger(b, 3 + i)).mod(p);
      assertEquals(want, f.toBigInteger(again, i), "element " + i);
    }
    // a and b off the element grid (from words 1 and 7), as shares in frames may lie
    long[] a1 = new long[1 + 2 * M];
    System.arraycopy(a, 0, a1, 1, 2 * M);
    long[] b7 = new long[1 + b.length];
    System.arraycopy(b, 0, b7, 1, b.length);
    long[] odd = f.alloc(M);
    assertEquals(true, SpdzKernels.addChecked127(a1, 1, b7, 7, odd, 0, M));
    assertArrayEquals(sum, odd);
  }

  @Test
  void addChecked127_eachOutOfFieldValue_isCaught() {
    long max = Long.MAX_VALUE;
    long[][] bad127 = {{-1, max}, {0, Long.MIN_VALUE}, {-1, -1}, {5, -2}};
    long[] a = {1, 0, 2, 0, 3, 0};
    for (long[] bad : bad127) {
      long[] b = {7, 3, 0, 0, bad[0], bad[1], 0, 0};
      long[] sum = new long[6];
      assertEquals(false, SpdzKernels.addChecked127(a, 0, b, 2, sum, 0, 3), bad[0] + ", " + bad[1]);
      assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 0, sum, 0, 2));
      assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 6, sum, 0, 1));
    }
  }

  @Test
  void addChecked127_twoPeers_randomAndEdgeValues_matchesBigIntegerSums() {
    Field f = Fields.byName("m127");
    Prg prg = Prg.seeded(17);
    BigInteger p = f.modulus();
    for (int m : new int[] {0, 1, 8, 511, 512, 513, M}) {
      long[] a = column(f, prg, Math.max(m, 8), 0);
      long[] b = column(f, prg, Math.max(m, 8) + 3, 4);
      long[] c = column(f, prg, Math.max(m, 8) + 1, 7);
      long[] sum = f.alloc(m);

      assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 6, c, 2, sum, 0, m));
      long[] a5 = new long[5 + a.length]; // a off the element grid, from word 5
      System.arraycopy(a, 0, a5, 5, a.length);
      long[] odd = f.alloc(m);
      assertEquals(true, SpdzKernels.addChecked127(a5, 5, b, 6, c, 2, odd, 0, m));
      assertArrayEquals(sum, odd, "m " + m);

      for (int i = 0; i < m; i++) {
        BigInteger want =
            f.toBigInteger(a, i).add(f.toBigInteger(b, 3 + i)).add(f.toBigInteger(c, 1 + i)).mod(p);
        assertEquals(want, f.toBigInteger(sum, i), "m " + m + ", element " + i);
      }
      // in place, as the suite adds a further pair of peers to the first sum
      long[] again = sum.clone();
      assertEquals(true, SpdzKernels.addChecked127(again, 0, c, 2, b, 6, again, 0, m));
      for (int i = 0; i < m; i++) {
        BigInteger want =
            f.toBigInteger(sum, i)
                .add(f.toBigInteger(b, 3 + i))
                .add(f.toBigInteger(c, 1 + i))
                .mod(p);
        assertEquals(want, f.toBigInteger(again, i), "m " + m + ", element " + i);
      }
    }
  }

  @Test
  void addChecked127_blocksOfARange_matchBigIntegerSumsAndLeaveTheRestAlone() {
    Field f = Fields.byName("m127");
    Prg prg = Prg.seeded(19);
    BigInteger p = f.modulus();
    long[] a = column(f, prg, M, 0);
    long[] b = column(f, prg, M + 5, 3);
    long[] c = column(f, prg, M + 2, 6);
    long[] sum2 = f.alloc(M);
    long[] sum3 = f.alloc(M);
    java.util.Arrays.fill(sum2, 42);
    java.util.Arrays.fill(sum3, 42);
    int from = 100;
    int to = M - 7;
    for (int lo = from; lo < to; lo += 512) { // blocks, as BeaverMultiply sums them
      int hi = Math.min(to, lo + 512);
      assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 10, sum2, lo, hi));
      assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 10, c, 4, sum3, lo, hi));
    }
    for (int i = 0; i < M; i++) {
      if (i < from || i >= to) {
        assertEquals(42, sum2[2 * i], "element " + i);
        assertEquals(42, sum3[2 * i + 1], "element " + i);
        continue;
      }
      BigInteger ab = f.toBigInteger(a, i).add(f.toBigInteger(b, 5 + i));
      assertEquals(ab.mod(p), f.toBigInteger(sum2, i), "element " + i);
      assertEquals(
          ab.add(f.toBigInteger(c, 2 + i)).mod(p), f.toBigInteger(sum3, i), "element " + i);
    }
  }

  @Test
  void addChecked127_twoPeers_sumsOfTheLargestValues_areCanonical() {
    long max = Long.MAX_VALUE;
    long[][] values = {{-2, max}, {-1, max - 1}, {0, max}, {-1, 0}, {0, 1}, {1, 0}, {0, 0}};
    BigInteger p = BigInteger.ONE.shiftLeft(127).subtract(BigInteger.ONE);
    Field f = Fields.byName("m127");
    for (long[] x : values) {
      for (long[] y : values) {
        for (long[] z : values) {
          long[] a = {x[0], x[1]};
          long[] b = {y[0], y[1]};
          long[] c = {z[0], z[1]};
          long[] sum = new long[2];
          assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 0, c, 0, sum, 0, 1));
          BigInteger want =
              f.toBigInteger(a, 0).add(f.toBigInteger(b, 0)).add(f.toBigInteger(c, 0)).mod(p);
          assertEquals(want, f.toBigInteger(sum, 0));
        }
      }
    }
  }

  @Test
  void addChecked127_twoPeers_eachOutOfFieldValue_isCaught() {
    long max = Long.MAX_VALUE;
    long[][] bad127 = {{-1, max}, {0, Long.MIN_VALUE}, {-1, -1}, {5, -2}};
    int m = 1030; // past two kernel blocks of 512
    long[] a = new long[2 * m];
    for (long[] bad : bad127) {
      for (int at : new int[] {0, 1, 511, 512, m - 1}) {
        for (int peer = 0; peer < 2; peer++) {
          long[] b = new long[2 * m];
          long[] c = new long[2 * m];
          long[] sent = peer == 0 ? b : c;
          sent[2 * at] = bad[0];
          sent[2 * at + 1] = bad[1];
          long[] sum = new long[2 * m];
          String what = bad[0] + ", " + bad[1] + " at " + at + " from peer " + peer;
          assertEquals(false, SpdzKernels.addChecked127(a, 0, b, 0, c, 0, sum, 0, m), what);
          // only the elements in [from, to) are read
          assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 0, c, 0, sum, 0, at), what);
          assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 0, c, 0, sum, at + 1, m), what);
          assertEquals(false, SpdzKernels.addChecked127(a, 0, b, 0, c, 0, sum, at, at + 1), what);
          int from = Math.max(0, at - 511); // a block that ends with it
          assertEquals(false, SpdzKernels.addChecked127(a, 0, b, 0, c, 0, sum, from, at + 1), what);
          if (at > 0) { // offsets shift the peers' elements against a and sum
            assertEquals(true, SpdzKernels.addChecked127(a, 0, b, 2, c, 2, sum, at, m - 1), what);
            assertEquals(false, SpdzKernels.addChecked127(a, 0, b, 2, c, 2, sum, 0, at), what);
          }
        }
      }
    }
  }

  @Test
  void allCanonical_eachOutOfFieldValue_isCaught() {
    long p61 = (1L << 61) - 1;
    long[] good61 = {0, 1, p61 - 1, p61 - 2};
    assertEquals(true, SpdzKernels.allCanonical61(good61, 0, good61.length));
    for (long bad : new long[] {p61, p61 + 1, 1L << 62, Long.MAX_VALUE, Long.MIN_VALUE, -1}) {
      long[] a = {0, p61 - 1, bad, 5};
      assertEquals(false, SpdzKernels.allCanonical61(a, 0, a.length), Long.toHexString(bad));
      assertEquals(true, SpdzKernels.allCanonical61(a, 0, 2)); // only the n from off are read
      assertEquals(true, SpdzKernels.allCanonical61(a, 3, 1));
      assertEquals(false, SpdzKernels.allCanonical61(a, 1, 2));
    }
    long max = Long.MAX_VALUE;
    long[] good127 = {0, 0, -2, max, -1, max - 1, -1, 0, 0, max};
    assertEquals(true, SpdzKernels.allCanonical127(good127, 0, good127.length / 2));
    long[][] bad127 = {{-1, max}, {0, Long.MIN_VALUE}, {-1, -1}, {5, -2}};
    for (long[] bad : bad127) {
      long[] a = {7, 3, bad[0], bad[1], 0, 0};
      assertEquals(false, SpdzKernels.allCanonical127(a, 0, 3), bad[0] + ", " + bad[1]);
      assertEquals(true, SpdzKernels.allCanonical127(a, 0, 1));
      assertEquals(true, SpdzKernels.allCanonical127(a, 2, 1)); // off counts elements
      assertEquals(false, SpdzKernels.allCanonical127(a, 1, 1));
    }
  }
}
