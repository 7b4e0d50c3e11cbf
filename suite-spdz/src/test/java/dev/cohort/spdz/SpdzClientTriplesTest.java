package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.SecretVector;
import dev.cohort.engine.Engine;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.Shares;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Triples drawn for input clients ({@link SpdzSuite#triplesForClients}) between runs: valid and
 * authenticated under the engine's MAC key, and never among the triples the engine's gates use.
 */
class SpdzClientTriplesTest {

  /**
   * What one party saw: the client triples it drew and every triple its preprocessing handed out.
   */
  private record Drawn(List<Triples> forClients, List<Triples> all, long[] alpha, long[] product) {}

  @ParameterizedTest
  @CsvSource({"m61, 2", "m127, 3"})
  void clientTriples_areValid_andNeverUsedByTheEngine(String fieldName, int n) {
    Field f = Fields.byName(fieldName);
    PreprocessingSource dealer = InsecureDealer.source(11);
    List<List<Triples>> recorded = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      recorded.add(new ArrayList<>());
    }
    PreprocessingSource recording =
        (field, party, parties) ->
            new ForwardingPreprocessing(dealer.open(field, party, parties)) {
              @Override
              public Triples triples(int count) {
                Triples t = super.triples(count);
                recorded.get(party).add(t);
                return t;
              }
            };
    SpdzConfig config = SpdzConfig.of(f, recording, "recording dealer");
    long[] x = {3, -4, 5, 6, 7};
    long[] y = {2, 9, -1, 8, 10};
    List<Drawn> drawn;
    try (LocalParties parties =
        LocalParties.builder(n).suite(SpdzSuite.factory(config)).standing().open()) {
      drawn =
          parties.onEngines(
              (p, engine) -> {
                SpdzSuite suite = (SpdzSuite) engine.suite();
                List<Triples> mine = new ArrayList<>();
                mine.add(suite.triplesForClients(4));
                long[] product = multiply(engine, x, y);
                mine.add(suite.triplesForClients(3));
                assertThrows(IllegalArgumentException.class, () -> suite.triplesForClients(-1));
                long[] again = multiply(engine, y, x);
                assertEquals(java.util.Arrays.toString(product), java.util.Arrays.toString(again));
                return new Drawn(mine, recorded.get(p), suite.constant(one(f), 1).mac, product);
              });
    }
    for (int i = 0; i < x.length; i++) {
      assertEquals(x[i] * y[i], drawn.get(0).product()[i]);
    }
    BigInteger alpha = BigInteger.ZERO;
    for (Drawn d : drawn) {
      alpha = alpha.add(f.toBigInteger(d.alpha(), 0)); // the MAC share of the constant 1 is α_i
    }
    for (int k = 0; k < 2; k++) {
      List<Triples> draw = new ArrayList<>();
      for (Drawn d : drawn) {
        draw.add(d.forClients().get(k));
      }
      BigInteger[] a = open(f, draw, 0, alpha);
      BigInteger[] b = open(f, draw, 1, alpha);
      BigInteger[] c = open(f, draw, 2, alpha);
      for (int i = 0; i < a.length; i++) {
        assertEquals(a[i].multiply(b[i]).mod(f.modulus()), c[i], "triple " + i);
      }
    }
    // party 0's preprocessing handed out the client triples and, apart from them, the engine's
    Set<Long> forClients = new HashSet<>();
    for (Triples t : drawn.get(0).forClients()) {
      for (long w : t.a().share) {
        forClients.add(w);
      }
    }
    List<Triples> all = drawn.get(0).all();
    assertEquals(4, all.size()); // client, engine, client, engine
    for (Triples t : List.of(all.get(1), all.get(3))) {
      for (long w : t.a().share) {
        assertFalse(forClients.contains(w), "a triple drawn for clients was used by the engine");
      }
    }
  }

  private static long[] one(Field f) {
    long[] one = f.alloc(1);
    f.encode(1, one, 0);
    return one;
  }

  /** x·y elementwise, x input by P0 and y by P1: one Beaver multiplication of five triples. */
  private static long[] multiply(Engine engine, long[] x, long[] y) {
    int me = engine.suite().myId();
    return engine
        .run(
            b -> {
              SecretVector a = b.input(0, me == 0 ? x : null, x.length, 8);
              SecretVector c = b.input(1, me == 1 ? y : null, y.length, 8);
              return b.open(b.mul(a, c));
            })
        .value();
  }

  /** Column {@code which} (a, b, c) of every party's draw, reconstructed with its MAC checked. */
  private static BigInteger[] open(Field f, List<Triples> draw, int which, BigInteger alpha) {
    int count = draw.get(0).a().length;
    BigInteger[] values = new BigInteger[count];
    for (int i = 0; i < count; i++) {
      BigInteger v = BigInteger.ZERO;
      BigInteger m = BigInteger.ZERO;
      for (Triples t : draw) {
        Shares s = which == 0 ? t.a() : which == 1 ? t.b() : t.c();
        v = v.add(f.toBigInteger(s.share, i));
        m = m.add(f.toBigInteger(s.mac, i));
      }
      values[i] = v.mod(f.modulus());
      assertEquals(alpha.multiply(values[i]).mod(f.modulus()), m.mod(f.modulus()), "MAC " + i);
    }
    return values;
  }
}
