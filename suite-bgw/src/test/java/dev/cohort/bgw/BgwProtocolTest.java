package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.BigPrimeField;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.Shares;
import dev.cohort.suite.SuiteFactory;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** BGW-specific behaviour: rounds, traffic, tampering, randomness and configuration errors. */
class BgwProtocolTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  static Stream<Field> fields() {
    return Stream.of(Fields.MERSENNE_61, Fields.MERSENNE_127);
  }

  private static LocalParties parties(int n, SuiteFactory suite, EngineConfig config) {
    return new LocalParties(n, suite, config, TIMEOUT);
  }

  private static LocalParties bgw(int n, Field field) {
    return parties(n, BgwSuite.factory(field), EngineConfig.defaults().withInsecureSeed(7));
  }

  // ---- rounds ----

  @ParameterizedTest
  @MethodSource("fields")
  void rounds_inputLayerMultiplyLayerOpen_costOneRoundEach(Field field) {
    int n = 4;
    List<Result<Long>> results =
        bgw(n, field)
            .run(
                b -> {
                  List<Secret> inputs = new ArrayList<>();
                  for (int p = 0; p < n; p++) {
                    inputs.add(b.input(p, p + 2, 16));
                  }
                  Secret product = b.mul(b.mul(inputs.get(0), inputs.get(1)), b.known(1));
                  Secret other = b.mul(inputs.get(2), inputs.get(3));
                  Secret sum = b.add(b.mul(product, 1), other);
                  for (int i = 0; i < 100; i++) {
                    sum = b.add(sum, b.known(0)); // local: no round
                  }
                  return b.open(sum);
                });
    for (Result<Long> r : results) {
      assertEquals(2L * 3 + 4 * 5, r.value());
      // input layer, two layers of multiplications, open
      assertEquals(4, r.metrics().rounds());
    }
  }

  @Test
  void rounds_tenThousandIndependentMultiplicationsInParScope_costOneRound() {
    int count = 10_000;
    Random random = new Random(11);
    long[] xs = random.longs(count, -1000, 1000).toArray();
    long[] ys = random.longs(count, -1000, 1000).toArray();
    List<Result<Long>> results =
        bgw(3, Fields.MERSENNE_61)
            .run(
                b -> {
                  SecretVector x = b.input(0, b.myId() == 0 ? xs : null, count, 16);
                  SecretVector y = b.input(1, b.myId() == 1 ? ys : null, count, 16);
                  Step<List<Secret>> products =
                      b.par(
                          p -> {
                            List<Secret> out = new ArrayList<>();
                            for (int i = 0; i < count; i++) {
                              out.add(p.mul(p.get(x, i), p.get(y, i)));
                            }
                            return Deferred.of(out);
                          });
                  return products.seq((s, list) -> s.open(s.sum(list)));
                });
    long expected = 0;
    for (int i = 0; i < count; i++) {
      expected += xs[i] * ys[i];
    }
    for (Result<Long> r : results) {
      assertEquals(expected, r.value());
      assertEquals(3, r.metrics().rounds()); // input, multiply, open
      assertEquals(count, r.metrics().gates().get("multiply"));
      assertEquals(1, r.metrics().batches().get("multiply"));
    }
  }

  @Test
  void batchSize_limitsElementsInFlight_multiplicationsSpreadOverRounds() {
    int count = 1000;
    List<Result<Long>> results =
        parties(
                3,
                BgwSuite.factory(Fields.MERSENNE_61),
                EngineConfig.defaults().withInsecureSeed(3).withBatchSize(100))
            .run(
                b -> {
                  SecretVector x = b.input(0, b.myId() == 0 ? ones(count) : null, count, 8);
                  List<Secret> products = new ArrayList<>();
                  for (int i = 0; i < count; i++) {
                    products.add(b.mul(b.get(x, i), b.get(x, i)));
                  }
                  return b.seq(s -> s.open(s.sum(products)));
                });
    for (Result<Long> r : results) {
      assertEquals(count, r.value());
      assertEquals(10, r.metrics().batches().get("multiply"));
      assertEquals(1 + 10 + 1, r.metrics().rounds());
    }
  }

  private static long[] ones(int n) {
    long[] a = new long[n];
    Arrays.fill(a, 1);
    return a;
  }

  // ---- traffic ----

  @Test
  void multiply_threeParties_eachPartySendsOneElementPerProduct() {
    int count = 1000;
    Random random = new Random(5);
    long[] xs = random.longs(count, -50, 50).toArray();
    long[] ys = random.longs(count, -50, 50).toArray();
    List<Result<Boolean>> withoutMultiply =
        bgw(3, Fields.MERSENNE_61)
            .run(
                b -> {
                  b.input(0, b.myId() == 0 ? xs : null, count, 8);
                  b.input(1, b.myId() == 1 ? ys : null, count, 8);
                  return Deferred.of(true);
                });
    List<Result<Boolean>> withMultiply =
        bgw(3, Fields.MERSENNE_61)
            .run(
                b -> {
                  SecretVector x = b.input(0, b.myId() == 0 ? xs : null, count, 8);
                  SecretVector y = b.input(1, b.myId() == 1 ? ys : null, count, 8);
                  b.mul(x, y);
                  return Deferred.of(true);
                });
    for (int p = 0; p < 3; p++) {
      long extra =
          withMultiply.get(p).metrics().totalBytesSent()
              - withoutMultiply.get(p).metrics().totalBytesSent();
      assertEquals(8L * count, extra, "P" + p + " bytes for " + count + " multiplications");
    }
  }

  // ---- tampering ----

  static Stream<Arguments> tamperCases() {
    return Stream.of(
        Arguments.of(3, 1, 1),
        Arguments.of(4, 1, 0),
        Arguments.of(4, 1, 3),
        Arguments.of(7, 2, 5),
        Arguments.of(7, 3, 2));
  }

  @ParameterizedTest
  @MethodSource("tamperCases")
  void open_tamperedShare_abortsOnEveryParty(int n, int t, int cheater) {
    for (Field field : List.of(Fields.MERSENNE_61, Fields.MERSENNE_127)) {
      InterceptingSuite.Hooks tamper =
          new InterceptingSuite.Hooks() {
            @Override
            public Shares beforeOpen(int party, Shares shares) {
              if (party != cheater) {
                return shares;
              }
              long[] changed = shares.share.clone();
              long[] one = field.alloc(1);
              field.encode(1, one, 0);
              field.add(changed, 0, one, 0, changed, 0, 1);
              return new Shares(shares.length, changed, null);
            }
          };
      SuiteFactory suite =
          InterceptingSuite.wrap(BgwSuite.factory(new BgwConfig(field, t, 64)), tamper);
      PartyFailedException e =
          assertThrows(
              PartyFailedException.class,
              () ->
                  parties(n, suite, EngineConfig.defaults().withInsecureSeed(9))
                      .run(b -> b.open(b.mul(b.input(0, 3, 8), b.input(1, 4, 8)))));
      List<Throwable> failures = new ArrayList<>();
      failures.add(e);
      failures.addAll(Arrays.asList(e.getSuppressed()));
      assertEquals(n, failures.size(), "every party must fail");
      for (Throwable f : failures) {
        Throwable cause = f.getCause();
        assertInstanceOf(AbortException.class, cause, f.getMessage());
        assertTrue(cause.getMessage().contains("consistency check"), cause.getMessage());
      }
    }
  }

  // ---- randomness ----

  @Test
  void input_differentSeeds_giveDifferentSharesAtEveryParty() {
    int n = 5;
    long[][] first = inputShares(n, 1);
    long[][] again = inputShares(n, 1);
    long[][] other = inputShares(n, 2);
    for (int p = 0; p < n; p++) {
      assertArrayEquals(first[p], again[p], "same seed, same shares at P" + p);
      assertFalse(Arrays.equals(first[p], other[p]), "different seeds, same shares at P" + p);
    }
  }

  private static long[][] inputShares(int n, long seed) {
    long[][] captured = new long[n][];
    InterceptingSuite.Hooks capture =
        new InterceptingSuite.Hooks() {
          @Override
          public void afterInput(int party, Shares shares) {
            captured[party] = shares.share.clone();
          }
        };
    SuiteFactory suite = InterceptingSuite.wrap(BgwSuite.factory(Fields.MERSENNE_61), capture);
    List<Result<Long>> results =
        parties(n, suite, EngineConfig.defaults().withInsecureSeed(seed))
            .run(b -> b.open(b.input(2, 42, 8)));
    for (Result<Long> r : results) {
      assertEquals(42L, r.value());
    }
    return captured;
  }

  // ---- configuration and input errors ----

  @Test
  void validate_twoParties_refusedWithMinimum() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> bgw(2, Fields.MERSENNE_61));
    assertEquals("BGW needs at least 3 parties, got 2 (use SPDZ for 2 parties)", e.getMessage());
  }

  @Test
  void validate_thresholdNotBelowHalf_refused() {
    SuiteFactory suite = BgwSuite.factory(BgwConfig.of(Fields.MERSENNE_61).withThreshold(2));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> suite.validate(4));
    assertEquals("threshold (2) must be < parties / 2 (parties: 4)", e.getMessage());
  }

  /**
   * Party i evaluates at x_i = i + 1, so with n ≥ p party p − 1 would get the point 0 (its share
   * would be the secret itself) and the points would repeat: refused, naming the field size.
   */
  @Test
  void validate_partiesNotBelowModulus_refusedNamingFieldSizeNeeded() {
    Field small = new BigPrimeField(BigInteger.valueOf(7));
    SuiteFactory suite = BgwSuite.factory(small);
    for (int n : new int[] {7, 8, 13}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> suite.validate(n));
      assertEquals(
          "BGW with "
              + n
              + " parties needs a field with more than "
              + n
              + " elements (the points 1.."
              + n
              + " must be distinct and nonzero); "
              + small.name()
              + " has p = 7",
          e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> suite.create(0, n, null));
    }
  }

  /** Just below the bound, n = p − 1 = 12 parties over F_13 compute correctly (t = 5). */
  @Test
  void multiply_twelvePartiesOverThirteen_matchesArithmeticModThirteen() {
    BigInteger p = BigInteger.valueOf(13);
    List<Result<BigInteger>> results =
        parties(
                12,
                BgwSuite.factory(new BigPrimeField(p)),
                EngineConfig.defaults().withInsecureSeed(3))
            .run(
                b ->
                    b.openBig(
                        b.add(b.mul(b.input(0, 3, 3), b.input(11, -4, 3)), b.input(6, 2, 3))));
    for (Result<BigInteger> r : results) {
      assertEquals(BigInteger.valueOf(3 * -4 + 2).mod(p), r.value().mod(p));
    }
  }

  @Test
  void openTo_partyThatDoesNotExist_failsNamingIt() {
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> bgw(3, Fields.MERSENNE_61).run(b -> b.openTo(3, b.input(0, 1, 8))));
    assertTrue(e.getCause().getMessage().contains("openTo names party 3"), e.getMessage());
  }

  @Test
  void input_partyOutOfRange_failsNamingIt() {
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> bgw(3, Fields.MERSENNE_61).run(b -> b.open(b.input(-1, 1, 8))));
    assertTrue(e.getCause().getMessage().contains("input names party -1"), e.getMessage());
  }

  @Test
  void input_valueOutsideDeclaredBits_failsNamingPartyAndPosition() {
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                bgw(3, Fields.MERSENNE_61)
                    .run(
                        b ->
                            b.open(
                                b.input(1, b.myId() == 1 ? new long[] {1, 2, 300} : null, 3, 9))));
    assertEquals("P1", e.party().toString());
    assertEquals(
        "P1's input at position 2 is outside the declared 9-bit signed range [-2^8, 2^8)",
        e.getCause().getMessage());
  }
}
