package dev.cohort.offline.mascot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.offline.ot.InsecureIdealOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing.InputMasks;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Shares;
import java.math.BigInteger;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MASCOT material made by real parties (threads, in-memory network, ideal OTs) against a BigInteger
 * reference: every sharing reconstructs to a value whose MAC shares sum to α·value, with α the sum
 * of the parties' key shares.
 */
class MascotPreprocessingTest {

  static Stream<Arguments> setups() {
    return Stream.of(2, 3, 5)
        .flatMap(
            n -> Stream.of(Fields.MERSENNE_61, Fields.MERSENNE_127).map(f -> Arguments.of(f, n)));
  }

  /** What each party drew, in one run of every kind. */
  record Drawn(
      long[] alpha,
      Triples triples,
      Triples more,
      Shares random,
      Shares bits,
      InputMasks masks,
      InputMasks inputBits,
      Triples none) {}

  @ParameterizedTest(name = "{0}, {1} parties")
  @MethodSource("setups")
  void everyKind_manyParties_matchesReferenceAndMacs(Field f, int n) {
    int owner = n - 1;
    List<Drawn> drawn =
        MascotParties.run(
            f,
            n,
            7 + n,
            (p, pre) ->
                new Drawn(
                    pre.macKeyShare(),
                    pre.triples(37),
                    pre.triples(3),
                    pre.randomElements(20),
                    pre.randomBits(40),
                    pre.inputMasks(owner, 9),
                    pre.inputBits(0, 12),
                    pre.triples(0)));
    BigInteger p = f.modulus();
    BigInteger alpha = BigInteger.ZERO;
    for (Drawn d : drawn) {
      alpha = alpha.add(f.toBigInteger(d.alpha(), 0));
    }
    alpha = alpha.mod(p);
    for (int which = 0; which < 2; which++) {
      int w = which;
      BigInteger[] a = open(f, drawn, d -> (w == 0 ? d.triples() : d.more()).a(), alpha);
      BigInteger[] b = open(f, drawn, d -> (w == 0 ? d.triples() : d.more()).b(), alpha);
      BigInteger[] c = open(f, drawn, d -> (w == 0 ? d.triples() : d.more()).c(), alpha);
      assertEquals(which == 0 ? 37 : 3, a.length);
      for (int i = 0; i < a.length; i++) {
        assertEquals(a[i].multiply(b[i]).mod(p), c[i], "triple " + i);
      }
      assertEquals(a.length, distinct(a), "triples repeat");
    }
    assertEquals(0, drawn.get(0).none().a().length);
    BigInteger[] r = open(f, drawn, Drawn::random, alpha);
    assertEquals(20, distinct(r));
    BigInteger[] bits = open(f, drawn, Drawn::bits, alpha);
    assertBits(bits);
    BigInteger[] masks = open(f, drawn, d -> d.masks().shares(), alpha);
    assertEquals(9, distinct(masks));
    assertOwnerValues(f, drawn, Drawn::masks, owner, masks);
    BigInteger[] inputBits = open(f, drawn, d -> d.inputBits().shares(), alpha);
    assertBits(inputBits);
    assertOwnerValues(f, drawn, Drawn::inputBits, 0, inputBits);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("fields")
  void badArguments_areRefusedWithTheirNames(Field f) {
    List<String> messages =
        MascotParties.run(
            f,
            2,
            3,
            (p, pre) -> {
              String count =
                  assertThrows(IllegalArgumentException.class, () -> pre.triples(-1)).getMessage();
              String owner =
                  assertThrows(IllegalArgumentException.class, () -> pre.inputMasks(2, 1))
                      .getMessage();
              assertThrows(IllegalArgumentException.class, () -> pre.inputBits(-1, 1));
              assertThrows(IllegalArgumentException.class, () -> pre.randomBits(-1));
              return count + " | " + owner;
            });
    assertEquals("count (-1) must be >= 0 | owner (2) must be in [0, 2)", messages.get(0));
  }

  static Stream<Field> fields() {
    return Stream.of(Fields.MERSENNE_61, Fields.MERSENNE_127);
  }

  @org.junit.jupiter.api.Test
  void otherField_isRefused() {
    InMemoryNetwork network = new InMemoryNetwork(2, Duration.ofSeconds(5));
    Field small = Fields.prime(BigInteger.valueOf(1_000_003));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new MascotPreprocessing(
                    small,
                    network.channel(0),
                    new InsecureIdealOts(1, 1, 0, 2),
                    new InsecureIdealOts(1, 2, 0, 2),
                    Prg.seeded(1)));
    assertTrue(e.getMessage().contains("2^61 - 1 or 2^127 - 1"), e.getMessage());
  }

  // ---- reference -------------------------------------------------------------------------------

  /** Values of a column of every party's draw, reconstructed, with Σ m = α·value checked. */
  static BigInteger[] open(
      Field f,
      List<Drawn> drawn,
      java.util.function.Function<Drawn, Shares> column,
      BigInteger alpha) {
    BigInteger p = f.modulus();
    int count = column.apply(drawn.get(0)).length;
    BigInteger[] values = new BigInteger[count];
    for (int i = 0; i < count; i++) {
      BigInteger v = BigInteger.ZERO;
      BigInteger m = BigInteger.ZERO;
      for (Drawn d : drawn) {
        Shares s = column.apply(d);
        assertEquals(count, s.length);
        v = v.add(f.toBigInteger(s.share, i));
        m = m.add(f.toBigInteger(s.mac, i));
      }
      values[i] = v.mod(p);
      assertEquals(alpha.multiply(values[i]).mod(p), m.mod(p), "MAC of element " + i);
    }
    return values;
  }

  private static int distinct(BigInteger[] values) {
    Set<BigInteger> set = new HashSet<>(List.of(values));
    return set.size();
  }

  private static void assertBits(BigInteger[] bits) {
    int ones = 0;
    for (BigInteger b : bits) {
      assertTrue(b.equals(BigInteger.ZERO) || b.equals(BigInteger.ONE), "not a bit: " + b);
      ones += b.intValue();
    }
    assertNotEquals(0, ones, "all bits 0");
    assertNotEquals(bits.length, ones, "all bits 1");
  }

  private static void assertOwnerValues(
      Field f,
      List<Drawn> drawn,
      java.util.function.Function<Drawn, InputMasks> kind,
      int owner,
      BigInteger[] expected) {
    for (int q = 0; q < drawn.size(); q++) {
      long[] values = kind.apply(drawn.get(q)).values();
      if (q != owner) {
        assertNull(values, "P" + q + " got the values of P" + owner + "'s masks");
        continue;
      }
      assertNotNull(values);
      for (int i = 0; i < expected.length; i++) {
        assertEquals(expected[i], f.toBigInteger(values, i), "value " + i + " at the owner");
      }
    }
  }
}
