package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Shares;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The seeded dealer's material, reconstructed from every party's dealer with BigInteger arithmetic:
 * valid (c = ab, Σ m_i = α·v) and random, never zeros.
 */
class InsecureDealerTest {

  private static final int COUNT = 50;

  private static Field field(String name) {
    return Fields.byName(name);
  }

  private static SpdzPreprocessing[] dealers(Field f, int n, long seed) {
    SpdzPreprocessing[] dealers = new SpdzPreprocessing[n];
    for (int p = 0; p < n; p++) {
      dealers[p] = InsecureDealer.source(seed).open(f, p, n);
    }
    return dealers;
  }

  private static BigInteger element(Field f, long[] a, int i) {
    return f.toBigInteger(a, i);
  }

  /** Σ over the parties of element i of the column each party's shares give. */
  private static BigInteger[] reconstruct(Field f, List<Shares> shares, boolean mac) {
    BigInteger[] out = new BigInteger[shares.get(0).length];
    for (int i = 0; i < out.length; i++) {
      BigInteger sum = BigInteger.ZERO;
      for (Shares s : shares) {
        sum = sum.add(element(f, mac ? s.mac : s.share, i));
      }
      out[i] = sum.mod(f.modulus());
    }
    return out;
  }

  private static BigInteger alpha(Field f, SpdzPreprocessing[] dealers) {
    BigInteger sum = BigInteger.ZERO;
    for (SpdzPreprocessing d : dealers) {
      sum = sum.add(element(f, d.macKeyShare(), 0));
    }
    return sum.mod(f.modulus());
  }

  /** Reconstructs values and checks their MACs; returns the values. */
  private static BigInteger[] open(
      Field f, SpdzPreprocessing[] dealers, Function<SpdzPreprocessing, Shares> draw) {
    List<Shares> shares = new java.util.ArrayList<>();
    for (SpdzPreprocessing d : dealers) {
      shares.add(draw.apply(d));
    }
    BigInteger alpha = alpha(f, dealers);
    BigInteger[] values = reconstruct(f, shares, false);
    BigInteger[] macs = reconstruct(f, shares, true);
    for (int i = 0; i < values.length; i++) {
      assertEquals(alpha.multiply(values[i]).mod(f.modulus()), macs[i], "MAC of element " + i);
    }
    for (Shares s : shares) {
      for (int i = 0; i < s.length; i++) {
        assertNotEquals(BigInteger.ZERO, element(f, s.share, i), "a share is zero");
        assertNotEquals(BigInteger.ZERO, element(f, s.mac, i), "a MAC share is zero");
      }
    }
    return values;
  }

  @ParameterizedTest(name = "{0}, {1} parties")
  @CsvSource({"m61,2", "m61,3", "m127,2", "m127,5"})
  void material_everyKind_validAndRandom(String name, int n) {
    Field f = field(name);
    SpdzPreprocessing[] dealers = dealers(f, n, 77);
    assertNotEquals(BigInteger.ZERO, alpha(f, dealers), "α");

    Triples[] triples = new Triples[n];
    for (int p = 0; p < n; p++) {
      triples[p] = dealers[p].triples(COUNT);
    }
    BigInteger[] a = open(f, dealers, d -> triples[index(dealers, d)].a());
    BigInteger[] b = open(f, dealers, d -> triples[index(dealers, d)].b());
    BigInteger[] c = open(f, dealers, d -> triples[index(dealers, d)].c());
    for (int i = 0; i < COUNT; i++) {
      assertEquals(a[i].multiply(b[i]).mod(f.modulus()), c[i], "triple " + i);
    }
    assertMostlyDistinct(a);

    int owner = n - 1;
    InputMasks[] masks = new InputMasks[n];
    for (int p = 0; p < n; p++) {
      masks[p] = dealers[p].inputMasks(owner, COUNT);
    }
    BigInteger[] r = open(f, dealers, d -> masks[index(dealers, d)].shares());
    for (int p = 0; p < n - 1; p++) {
      assertNull(masks[p].values(), "P" + p + " must not learn the mask values");
    }
    for (int i = 0; i < COUNT; i++) {
      assertEquals(r[i], element(f, masks[owner].values(), i), "mask " + i + " at its owner");
    }
    assertMostlyDistinct(r);

    for (int bitOwner : new int[] {0, n - 1}) { // a party that draws only its shares, and the last
      InputMasks[] inputBits = new InputMasks[n];
      for (int p = 0; p < n; p++) {
        inputBits[p] = dealers[p].inputBits(bitOwner, COUNT);
      }
      BigInteger[] ib = open(f, dealers, d -> inputBits[index(dealers, d)].shares());
      int set = 0;
      for (int i = 0; i < COUNT; i++) {
        assertTrue(ib[i].equals(BigInteger.ZERO) || ib[i].equals(BigInteger.ONE), "bit " + ib[i]);
        assertEquals(ib[i], element(f, inputBits[bitOwner].values(), i), "input bit " + i);
        set += ib[i].intValue();
      }
      assertTrue(set > 0 && set < COUNT, "both values occur: " + set + " ones");
      for (int p = 0; p < n; p++) {
        if (p != bitOwner) {
          assertNull(inputBits[p].values(), "P" + p + " must not learn P" + bitOwner + "'s bits");
        }
      }
    }

    assertMostlyDistinct(open(f, dealers, d -> d.randomElements(COUNT)));

    BigInteger[] bits = open(f, dealers, d -> d.randomBits(COUNT));
    int ones = 0;
    for (BigInteger bit : bits) {
      assertTrue(bit.equals(BigInteger.ZERO) || bit.equals(BigInteger.ONE), "bit " + bit);
      ones += bit.intValue();
    }
    assertTrue(ones > 0 && ones < COUNT, "ones: " + ones);
  }

  private static int index(SpdzPreprocessing[] dealers, SpdzPreprocessing d) {
    for (int p = 0; p < dealers.length; p++) {
      if (dealers[p] == d) {
        return p;
      }
    }
    throw new AssertionError();
  }

  private static void assertMostlyDistinct(BigInteger[] values) {
    Set<BigInteger> distinct = new HashSet<>(List.of(values));
    assertEquals(values.length, distinct.size(), "random elements repeat");
    assertTrue(!distinct.contains(BigInteger.ZERO), "a random value is zero");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"m61", "m127"})
  void differentSeeds_differentMaterial(String name) {
    Field f = field(name);
    long[] one = InsecureDealer.source(1).open(f, 0, 2).randomElements(1).share;
    long[] two = InsecureDealer.source(2).open(f, 0, 2).randomElements(1).share;
    assertNotEquals(element(f, one, 0), element(f, two, 0));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"m61", "m127"})
  void inputBits_otherKindsDrawnFirst_sameSharingAtEveryParty(String name) {
    Field f = field(name);
    int n = 3;
    SpdzPreprocessing fresh = InsecureDealer.source(9).open(f, 1, n);
    SpdzPreprocessing busy = InsecureDealer.source(9).open(f, 1, n);
    busy.triples(7);
    busy.inputMasks(2, 5);
    busy.randomBits(3);
    busy.inputBits(0, 4); // another owner's stream
    Shares a = fresh.inputBits(2, 20).shares();
    Shares b = busy.inputBits(2, 20).shares();
    for (int i = 0; i < 20; i++) {
      assertEquals(element(f, a.share, i), element(f, b.share, i), "share " + i);
      assertEquals(element(f, a.mac, i), element(f, b.mac, i), "MAC share " + i);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"m61"})
  void limit_exceeded_failsNamingKindAndAmounts(String name) {
    SpdzPreprocessing dealer = InsecureDealer.source(5, 100).open(field(name), 1, 3);
    dealer.triples(60);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> dealer.triples(41));
    assertEquals(
        "SPDZ preprocessing ran out of triples: 41 needed, 40 of 100 left", e.getMessage());
    dealer.triples(40);
    e = assertThrows(IllegalStateException.class, () -> dealer.randomBits(101));
    assertEquals(
        "SPDZ preprocessing ran out of random bits: 101 needed, 100 of 100 left", e.getMessage());
    dealer.inputBits(2, 100);
    e = assertThrows(IllegalStateException.class, () -> dealer.inputBits(2, 1));
    assertEquals(
        "SPDZ preprocessing ran out of input bits of P2: 1 needed, 0 of 100 left", e.getMessage());
    assertEquals(100, dealer.inputBits(0, 100).shares().length, "the limit is per owner");
  }
}
