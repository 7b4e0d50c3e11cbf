package dev.cohort.bgw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Deferred;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.BigPrimeField;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Equality;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random bits on BGW: {@link BgwPrssBits} at t = 1 with PRSS, {@link BgwDealtBits} at t = 2 or
 * without PRSS. Opened bits are 0 or 1, balanced overall and in each of the three outsider roles
 * (thirds of the batch), and cost the rounds and traffic of the protocol that should run.
 */
class BgwRandomBitsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static List<Result<long[]>> openBits(BgwConfig config, int n, int length, long seed) {
    return new LocalParties(
            n, BgwSuite.factory(config), EngineConfig.defaults().withInsecureSeed(seed), TIMEOUT)
        .run(b -> b.open(b.randomBits(length)));
  }

  static Stream<Arguments> prssCases() {
    Stream.Builder<Arguments> cases = Stream.builder();
    for (Field field : List.of(Fields.MERSENNE_61, Fields.MERSENNE_127)) {
      for (int n : new int[] {3, 4, 5}) {
        for (int length : new int[] {0, 1, 2, 3, 1000, 10_000}) {
          cases.add(Arguments.of(field, n, length));
        }
      }
    }
    return cases.build();
  }

  @ParameterizedTest(name = "{0} n={1} length={2}")
  @MethodSource("prssCases")
  void randomBits_prssAtThresholdOne_zeroOrOneAndBalancedInEveryRole(
      Field field, int n, int length) {
    List<Result<long[]>> results = openBits(BgwConfig.of(field).withThreshold(1), n, length, 31);
    long[] bits = results.get(0).value();
    assertEquals(length, bits.length);
    for (Result<long[]> r : results) {
      assertArrayEquals(bits, r.value(), "every party opens the same bits");
    }
    assertBits(bits);
    assertEquals(length == 0 ? 0 : 3, results.get(0).metrics().rounds(), "bits (2) + open (1)");
  }

  @ParameterizedTest(name = "n={0}")
  @ValueSource(ints = {3, 5})
  void randomBits_prssDifferentSeeds_differentBits(int n) {
    BgwConfig config = BgwConfig.of(Fields.MERSENNE_127).withThreshold(1);
    long[] first = openBits(config, n, 300, 1).get(0).value();
    long[] again = openBits(config, n, 300, 1).get(0).value();
    long[] other = openBits(config, n, 300, 2).get(0).value();
    assertArrayEquals(first, again, "same seed");
    int differ = 0;
    for (int i = 0; i < first.length; i++) {
      differ += first[i] != other[i] ? 1 : 0;
    }
    assertTrue(differ > 100 && differ < 200, "bits that differ between seeds: " + differ);
  }

  /**
   * At n = 3 the PRSS bits cost every party one element per bit (a third dealt as outsider, two
   * thirds as the outsider's share of b, masked); the XOR of dealt bits costs P0 and P1 two and P2
   * one.
   */
  @ParameterizedTest(name = "prssLimit={0}")
  @ValueSource(ints = {64, 0})
  void randomBits_threeParties_sendTheElementsOfTheProtocolInUse(int prssLimit) {
    int length = 1000;
    BgwConfig config = new BgwConfig(Fields.MERSENNE_61, 1, prssLimit);
    LocalParties parties =
        new LocalParties(
            3, BgwSuite.factory(config), EngineConfig.defaults().withInsecureSeed(5), TIMEOUT);
    List<Result<Boolean>> without = parties.run(b -> Deferred.of(true));
    List<Result<Boolean>> with =
        parties.run(
            b -> {
              b.randomBits(length);
              return Deferred.of(true);
            });
    long[] elements = prssLimit > 0 ? new long[] {1, 1, 1} : new long[] {2, 2, 1};
    for (int p = 0; p < 3; p++) {
      long bytes =
          with.get(p).metrics().totalBytesSent() - without.get(p).metrics().totalBytesSent();
      assertEquals(8L * elements[p] * length, bytes, "P" + p + " bytes for " + length + " bits");
      assertEquals(2, with.get(p).metrics().rounds(), "rounds of random bits");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("dealtFields")
  void randomBits_thresholdTwo_dealtXorPathZeroOrOneAndBalanced(Field field) {
    List<Result<long[]>> results = openBits(BgwConfig.of(field).withThreshold(2), 5, 10_000, 17);
    long[] bits = results.get(0).value();
    for (Result<long[]> r : results) {
      assertArrayEquals(bits, r.value(), "every party opens the same bits");
    }
    assertBits(bits);
    // one dealing round and ⌈log2 3⌉ XOR levels, then the opening: the dealt path, not PRSS's 2
    assertEquals(1 + 2 + 1, results.get(0).metrics().rounds());
  }

  static Stream<Field> dealtFields() {
    return Stream.of(Fields.MERSENNE_61, Fields.MERSENNE_127);
  }

  @ParameterizedTest(name = "n={0} t={1}")
  @MethodSource("comparisonCases")
  void lessThanAndEqual_anyThreshold_matchPlaintext(int n, int t) {
    int length = 200;
    Random random = new Random(n * 10L + t);
    long[] xs = new long[length];
    long[] ys = new long[length];
    for (int i = 0; i < length; i++) {
      xs[i] = random.nextInt();
      ys[i] = i % 3 == 0 ? xs[i] : random.nextInt();
    }
    List<Result<List<long[]>>> results =
        new LocalParties(
                n,
                BgwSuite.factory(BgwConfig.of(Fields.MERSENNE_127).withThreshold(t)),
                EngineConfig.defaults().withInsecureSeed(3),
                TIMEOUT)
            .run(
                b -> {
                  var x = b.input(0, b.myId() == 0 ? xs : null, length, 32);
                  var y = b.input(1, b.myId() == 1 ? ys : null, length, 32);
                  Deferred<long[]> lt = b.open(Comparison.lessThan(b, x, y, 32));
                  Deferred<long[]> eq = b.open(Equality.equal(b, x, y, 32));
                  return () -> List.of(lt.get(), eq.get());
                });
    for (Result<List<long[]>> r : results) {
      for (int i = 0; i < length; i++) {
        assertEquals(xs[i] < ys[i] ? 1 : 0, r.value().get(0)[i], "lt at " + i);
        assertEquals(xs[i] == ys[i] ? 1 : 0, r.value().get(1)[i], "eq at " + i);
      }
    }
  }

  static Stream<Arguments> comparisonCases() {
    return Stream.of(Arguments.of(4, 1), Arguments.of(5, 1), Arguments.of(5, 2));
  }

  /**
   * Primes p ≡ 1 mod 4 of 64 bits, where s^((p+1)/4) is no square root: 2^64 − 59 (p − 1 = 4·odd)
   * and 2^64 − 2^32 + 1 (p − 1 = 2^32·odd, the longest Tonelli–Shanks loop).
   */
  static Stream<BigInteger> primesOneModFour() {
    return Stream.of(
        BigInteger.TWO.pow(64).subtract(BigInteger.valueOf(59)),
        BigInteger.TWO.pow(64).subtract(BigInteger.TWO.pow(32)).add(BigInteger.ONE));
  }

  private static Field oneModFour(BigInteger p) {
    assertTrue(p.isProbablePrime(64), p + " is prime");
    assertEquals(1, p.mod(BigInteger.valueOf(4)).intValue(), p + " ≡ 1 mod 4");
    return new BigPrimeField(p);
  }

  /** The square-root trick at n = 3 (forced) and at n = 7, t = 3 (the default above t = 2). */
  @ParameterizedTest(name = "p={0}")
  @MethodSource("primesOneModFour")
  void randomBits_primeOneModFour_squareRootPathZeroOrOneAndBalanced(BigInteger p) {
    Field field = oneModFour(p);
    BgwConfig forced = BgwConfig.of(field).withThreshold(1).withDealtBitsUpTo(0);
    List<Result<long[]>> results = openBits(forced, 3, 1000, 41);
    for (Result<long[]> r : results) {
      assertArrayEquals(results.get(0).value(), r.value(), "every party opens the same bits");
      // one multiplication, one opening, then the opening of the bits
      assertEquals(3, r.metrics().rounds(), "rounds of the square-root trick");
    }
    assertBits(results.get(0).value());
    long[] sevenParties = openBits(BgwConfig.of(field), 7, 200, 43).get(0).value();
    assertBits(sevenParties);
    long ones = Arrays.stream(sevenParties).sum();
    assertTrue(ones > 0 && ones < 200, ones + " ones of 200 at n = 7");
  }

  @ParameterizedTest(name = "p={0}")
  @MethodSource("primesOneModFour")
  void lessThanAndEqual_primeOneModFourSquareRootBits_matchPlaintext(BigInteger p) {
    int length = 30;
    int bits = 16; // k + κ + 1 = 57 < 64
    Random random = new Random(p.longValue());
    long[] xs = new long[length];
    long[] ys = new long[length];
    for (int i = 0; i < length; i++) {
      xs[i] = random.nextInt(1 << bits) - (1 << (bits - 1));
      ys[i] = i % 4 == 0 ? xs[i] : random.nextInt(1 << bits) - (1 << (bits - 1));
    }
    BgwConfig config = BgwConfig.of(oneModFour(p)).withThreshold(1).withDealtBitsUpTo(0);
    List<Result<List<long[]>>> results =
        new LocalParties(
                3, BgwSuite.factory(config), EngineConfig.defaults().withInsecureSeed(5), TIMEOUT)
            .run(
                b -> {
                  var x = b.input(0, b.myId() == 0 ? xs : null, length, bits);
                  var y = b.input(1, b.myId() == 1 ? ys : null, length, bits);
                  Deferred<long[]> lt = b.open(Comparison.lessThan(b, x, y, bits));
                  Deferred<long[]> eq = b.open(Equality.equal(b, x, y, bits));
                  return () -> List.of(lt.get(), eq.get());
                });
    for (Result<List<long[]>> r : results) {
      for (int i = 0; i < length; i++) {
        assertEquals(xs[i] < ys[i] ? 1 : 0, r.value().get(0)[i], "lt at " + i);
        assertEquals(xs[i] == ys[i] ? 1 : 0, r.value().get(1)[i], "eq at " + i);
      }
    }
  }

  /**
   * Every bit is 0 or 1; from 1000 bits on, the ones are within five standard deviations of half,
   * overall and in each third of the batch (P_0, P_1 and P_2 are the outsiders of the first, second
   * and last third, each a third rounded up or down).
   */
  private static void assertBits(long[] bits) {
    int m = bits.length;
    int[] ones = new int[3];
    int[] count = new int[3];
    int[] first = new int[4];
    for (int c = 0; c < 3; c++) {
      first[c + 1] = first[c] + (m - c + 2) / 3;
    }
    for (int i = 0; i < m; i++) {
      assertTrue(bits[i] == 0 || bits[i] == 1, "bit " + i + " is " + bits[i]);
      int role = i < first[1] ? 0 : i < first[2] ? 1 : 2;
      ones[role] += (int) bits[i];
      count[role]++;
    }
    if (m < 1000) {
      return;
    }
    assertWithinFiveSigma(ones[0] + ones[1] + ones[2], m, "all positions");
    for (int c = 0; c < 3; c++) {
      assertWithinFiveSigma(ones[c], count[c], "third " + c);
    }
  }

  private static void assertWithinFiveSigma(int ones, int count, String what) {
    double sigma = Math.sqrt(count) / 2;
    assertTrue(
        Math.abs(ones - count / 2.0) < 5 * sigma,
        what + ": " + ones + " ones of " + count + " (expected about half)");
  }
}
