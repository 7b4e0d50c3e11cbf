package dev.cohort.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.NetworkException;
import dev.cohort.api.Numeric;
import dev.cohort.api.PartyId;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.suite.SuiteFactory;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every suite meets, run through the whole stack (API, producers, engine, in-memory
 * network) on both Mersenne fields and the party counts a suite names. Extended by the plaintext,
 * BGW and SPDZ suite tests, as FRESCO's basic arithmetic tests are.
 *
 * <p>Every value is checked against a plaintext evaluation computed here with {@link BigInteger}
 * arithmetic, never against another output of the code under test. Round counts are checked
 * relative to what the suite says one gate costs ({@link #roundsPerInput()}, {@link
 * #roundsPerMultiply()}, {@link #roundsPerOpen()}, {@link #roundsPerCheckBeforeOpen()}, {@link
 * #roundsPerInputCheckBeforeOpen()}, {@link #roundsPerFinalCheck()}).
 *
 * <p>This class is long because it is one contract: a suite test extends it once and inherits every
 * case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class SuiteContractTest {

  /** The harness timeout of every run. */
  protected static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** The declared bit length of the inputs of most cases. */
  protected static final int BITS = 20;

  /** Runs a case on both Mersenne fields times {@link #partyCounts()}. */
  @Target(ElementType.METHOD)
  @Retention(RetentionPolicy.RUNTIME)
  @ParameterizedTest(name = "{0}, {1} parties")
  @MethodSource("fieldsAndParties")
  protected @interface EachFieldAndPartyCount {}

  /** The suite under test, configured for {@code parties} parties over {@code field}. */
  protected abstract SuiteFactory suite(Field field, int parties);

  /** The party counts to test (each at least 2). */
  protected abstract int[] partyCounts();

  /** Rounds one layer of multiplications costs. */
  protected int roundsPerMultiply() {
    return 1;
  }

  /** Rounds one layer of opens costs. */
  protected int roundsPerOpen() {
    return 1;
  }

  /** Rounds one layer of inputs (from any number of parties) costs. */
  protected int roundsPerInput() {
    return 1;
  }

  /**
   * Rounds an opening waits for the check of the values opened and input before it (SPDZ's MAC
   * check before any opening but Beaver's), when there are such values; 0 when openings need none.
   */
  protected int roundsPerCheckBeforeOpen() {
    return 0;
  }

  /**
   * Rounds an opening waits for the check of the inputs before it, when nothing else is unchecked
   * (SPDZ compares the digests of the input broadcasts); 0 when openings need none.
   */
  protected int roundsPerInputCheckBeforeOpen() {
    return 0;
  }

  /** Rounds the suite's end-of-run check adds to a run that opened something. */
  protected int roundsPerFinalCheck() {
    return 0;
  }

  protected Stream<Arguments> fieldsAndParties() {
    List<Arguments> cases = new ArrayList<>();
    for (Field f : List.of(Fields.MERSENNE_61, Fields.MERSENNE_127)) {
      for (int n : partyCounts()) {
        cases.add(Arguments.of(Named.of(f.name(), f), n));
      }
    }
    return cases.stream();
  }

  // ---- harness ----

  /** Runs party {@code i}'s computation {@code c.apply(i)} on {@code n} parties. */
  protected <T> List<Result<T>> run(Field f, int n, long seed, IntFunction<Computation<T>> c) {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(seed);
    return new LocalParties(n, suite(f, n), config, TIMEOUT).runEach(c);
  }

  /** Runs the same computation at every party. */
  protected <T> List<Result<T>> runOnAll(Field f, int n, long seed, Computation<T> c) {
    return run(f, n, seed, party -> c);
  }

  /** Runs a computation that must fail, and returns the failure. */
  protected <T> PartyFailedException runFailing(Field f, int n, Computation<T> c) {
    return assertThrows(PartyFailedException.class, () -> runOnAll(f, n, 1, c));
  }

  /** Asserts {@code opened} is in the field's symmetric range and congruent to {@code expected}. */
  protected static void assertCongruent(
      BigInteger expected, BigInteger opened, Field f, String what) {
    BigInteger p = f.modulus();
    BigInteger half = p.shiftRight(1);
    assertTrue(
        opened.compareTo(half.negate()) >= 0 && opened.compareTo(half) <= 0,
        () -> what + ": " + opened + " is outside the symmetric range of " + f.name());
    assertEquals(expected.mod(p), opened.mod(p), what);
  }

  protected static void assertCongruent(
      BigInteger[] expected, BigInteger[] opened, Field f, String what) {
    assertEquals(expected.length, opened.length, what + ": length");
    for (int i = 0; i < expected.length; i++) {
      assertCongruent(expected[i], opened[i], f, what + "[" + i + "]");
    }
  }

  private static long count(Map<String, Long> byKind, String kind) {
    return byKind.getOrDefault(kind, 0L);
  }

  private static BigInteger big(long v) {
    return BigInteger.valueOf(v);
  }

  private static long[] randomValues(Random random, int length) {
    long[] v = new long[length];
    for (int i = 0; i < length; i++) {
      v[i] = randomValue(random);
    }
    return v;
  }

  private static long randomValue(Random random) {
    return random.nextInt(1 << BITS) - (1 << (BITS - 1));
  }

  // ---- random circuits ----

  @EachFieldAndPartyCount
  void randomCircuit_tenLayersOfHundred_everyPartyOpensPlaintextValues(Field f, int n) {
    for (long seed = 1; seed <= 3; seed++) {
      RandomCircuit circuit = RandomCircuit.generate(seed, n, RandomCircuit.Shape.DEFAULT);
      BigInteger[] expected = circuit.expected(f.modulus());
      List<Result<BigInteger[]>> results = run(f, n, seed, party -> circuit.computation());
      assertEquals(n, results.size());
      for (Result<BigInteger[]> r : results) {
        RunMetrics m = r.metrics();
        assertCongruent(expected, r.value(), f, "seed " + seed + " at " + PartyId.of(m.party()));
        assertEquals(circuit.multiplications(), count(m.gates(), "multiply"), "multiply gates");
      }
    }
  }

  @EachFieldAndPartyCount
  void randomCircuit_manySmallCircuits_matchPlaintext(Field f, int n) {
    RandomCircuit.Shape shape = new RandomCircuit.Shape(8, 4, 6, 3);
    for (long seed = 100; seed < 115; seed++) {
      RandomCircuit circuit = RandomCircuit.generate(seed, n, shape);
      BigInteger[] expected = circuit.expected(f.modulus());
      for (Result<BigInteger[]> r : run(f, n, seed, party -> circuit.computation())) {
        assertCongruent(expected, r.value(), f, "seed " + seed);
      }
    }
  }

  // ---- inputs ----

  @EachFieldAndPartyCount
  void input_endsOfDeclaredRange_openExactly(Field f, int n) {
    int longBits = Math.min(64, f.bitLength() - 1);
    long longMin = longBits == 64 ? Long.MIN_VALUE : -(1L << (longBits - 1));
    long longMax = longBits == 64 ? Long.MAX_VALUE : (1L << (longBits - 1)) - 1;
    long[] longs = {longMin, longMax, -1, 0, 1};
    int bigBits = f.bitLength() - 1;
    BigInteger bigMin = BigInteger.ONE.shiftLeft(bigBits - 1).negate();
    BigInteger bigMax = BigInteger.ONE.shiftLeft(bigBits - 1).subtract(BigInteger.ONE);
    int last = n - 1;

    List<Result<List<Object>>> results =
        run(
            f,
            n,
            5,
            party ->
                b -> {
                  boolean mine = b.myId() == last;
                  SecretVector v = b.input(last, mine ? longs : null, longs.length, longBits);
                  Secret lo = b.input(0, bigMin, bigBits);
                  Secret hi = b.input(last, bigMax, bigBits);
                  Deferred<long[]> opened = b.open(v);
                  Deferred<BigInteger> openedLo = b.openBig(lo);
                  Deferred<BigInteger> openedHi = b.openBig(hi);
                  Deferred<Long> openedMin = b.open(b.get(v, 0));
                  return () ->
                      List.of(opened.get(), openedLo.get(), openedHi.get(), openedMin.get());
                });
    for (Result<List<Object>> r : results) {
      assertArrayEquals(longs, (long[]) r.value().get(0));
      assertEquals(bigMin, r.value().get(1));
      assertEquals(bigMax, r.value().get(2));
      assertEquals(longMin, r.value().get(3));
    }
  }

  @EachFieldAndPartyCount
  void openLowBits_widthsAcrossWords_matchRepresentativeModPowerOfTwo(Field f, int n) {
    int bigBits = f.bitLength() - 1;
    BigInteger[] values = {
      BigInteger.ZERO,
      BigInteger.ONE,
      BigInteger.ONE.negate(), // representative p − 1
      BigInteger.ONE.shiftLeft(bigBits - 1).subtract(BigInteger.ONE),
      BigInteger.ONE.shiftLeft(bigBits - 1).negate(),
      BigInteger.valueOf(0x1234_5678_9ABC_DEF1L).shiftLeft(bigBits - 64).negate()
    };
    int[] widths = {1, 5, 63, 64, 65, 100};
    List<Result<List<long[]>>> results =
        run(
            f,
            n,
            6,
            party ->
                b -> {
                  SecretVector v = b.known(values);
                  List<Deferred<long[]>> opened = new ArrayList<>();
                  for (int bits : widths) {
                    opened.add(b.openLowBits(v, bits));
                  }
                  return () -> opened.stream().map(Deferred::get).toList();
                });
    for (Result<List<long[]>> r : results) {
      for (int w = 0; w < widths.length; w++) {
        int bits = widths[w];
        int per = (bits + 63) / 64;
        long[] got = r.value().get(w);
        assertEquals(values.length * per, got.length, "words for " + bits + " bits");
        for (int j = 0; j < values.length; j++) {
          BigInteger expected = values[j].mod(f.modulus()).mod(BigInteger.ONE.shiftLeft(bits));
          BigInteger actual = BigInteger.ZERO;
          for (int k = per - 1; k >= 0; k--) {
            actual =
                actual.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(got[j * per + k])));
          }
          assertEquals(expected, actual, "value " + j + " mod 2^" + bits);
        }
      }
    }
  }

  // ---- vectors ----

  @EachFieldAndPartyCount
  void vectorOperations_lengths0To1000_matchPlaintext(Field f, int n) {
    for (int length : new int[] {0, 1, 7, 1000}) {
      checkVectorOperations(f, n, length);
    }
  }

  private void checkVectorOperations(Field f, int n, int length) {
    Random random = new Random(1000 + length);
    long[] a = randomValues(random, length);
    long[] b = randomValues(random, length);
    long[] k = new long[length];
    for (int i = 0; i < length; i++) {
      k[i] = random.nextLong();
    }
    long[] small = new long[length]; // linear-form coefficients: |c| < 2^31, extremes included
    long[] signs = new long[length];
    long[] constants = new long[length];
    long edge = (1L << 31) - 1;
    for (int i = 0; i < length; i++) {
      small[i] = i % 7 == 0 ? (i % 2 == 0 ? edge : -edge) : random.nextInt() >> random.nextInt(31);
      signs[i] = random.nextInt(3) - 1;
      constants[i] = random.nextLong();
    }
    long s = randomValue(random);
    long c = random.nextLong();
    long d = random.nextLong();
    BigInteger bigC = new BigInteger(100, random).negate();
    int from = length / 3;
    int to = length - length / 3;
    int at = length / 2;
    int last = n - 1;

    Map<String, BigInteger[]> expected = new LinkedHashMap<>();
    expected.put("open", map(length, i -> big(a[i])));
    expected.put("add", map(length, i -> big(a[i]).add(big(b[i]))));
    expected.put("sub", map(length, i -> big(a[i]).subtract(big(b[i]))));
    expected.put("negate", map(length, i -> big(a[i]).negate()));
    expected.put("mul", map(length, i -> big(a[i]).multiply(big(b[i]))));
    expected.put("mulBySecret", map(length, i -> big(a[i]).multiply(big(s))));
    expected.put("mulByConstant", map(length, i -> big(a[i]).multiply(big(c))));
    expected.put("mulByBigConstant", map(length, i -> big(a[i]).multiply(bigC)));
    // Products of one round share a batch, so they are views into it at different offsets; the
    // sum and difference read them in place.
    expected.put(
        "addOfProducts",
        map(length, i -> big(a[i]).multiply(big(b[i])).add(big(a[i]).multiply(big(s)))));
    expected.put(
        "subOfProducts",
        map(length, i -> big(a[i]).multiply(big(s)).subtract(big(a[i]).multiply(big(b[i])))));
    expected.put("addConstant", map(length, i -> big(a[i]).add(big(d))));
    expected.put("addKnown", map(length, i -> big(a[i]).add(big(k[i]))));
    BigInteger sum = BigInteger.ZERO;
    BigInteger inner = BigInteger.ZERO;
    for (int i = 0; i < length; i++) {
      sum = sum.add(big(a[i]));
      inner = inner.add(big(a[i]).multiply(big(b[i])));
    }
    expected.put("sum", new BigInteger[] {sum});
    expected.put("sumOfList", new BigInteger[] {sum});
    expected.put("sumOfEmptyList", new BigInteger[] {BigInteger.ZERO});
    expected.put("innerProduct", new BigInteger[] {inner});
    expected.put("innerProductOfLists", new BigInteger[] {inner});
    expected.put(
        "linear",
        map(
            length,
            i ->
                big(a[i])
                    .multiply(big(small[i]))
                    .add(big(b[i]))
                    .add(big(a[i]).multiply(big(signs[i])))
                    .add(big(constants[i]))));
    expected.put(
        "linearOfRows", map(length, i -> big(b[i]).multiply(big(signs[i])).subtract(big(a[i]))));
    expected.put("linearOfNoTerms", map(length, i -> big(constants[i])));
    expected.put(
        "sumRows", map(length, i -> big(a[i]).multiply(bigC).add(big(b[i]).shiftLeft(70))));
    expected.put("slice", map(to - from, i -> big(a[from + i])));
    expected.put("concat", map(2 * length, i -> big(i < length ? a[i] : b[i - length])));
    if (length > 0) {
      expected.put("get", new BigInteger[] {big(a[at])});
    }

    List<Result<Map<String, BigInteger[]>>> results =
        run(
            f,
            n,
            length,
            party ->
                bld -> {
                  boolean first = bld.myId() == 0;
                  boolean mine = bld.myId() == last;
                  SecretVector va = bld.input(0, first ? a : null, length, BITS);
                  SecretVector vb = bld.input(last, mine ? b : null, length, BITS);
                  Secret ss = bld.input(last, mine ? s : 0, BITS);
                  List<Secret> la = new ArrayList<>();
                  List<Secret> lb = new ArrayList<>();
                  for (int i = 0; i < length; i++) {
                    la.add(bld.get(va, i));
                    lb.add(bld.get(vb, i));
                  }
                  Map<String, Deferred<BigInteger[]>> out = new LinkedHashMap<>();
                  Deferred<long[]> opened = bld.open(va);
                  out.put("open", () -> map(length, i -> big(opened.get()[i])));
                  out.put("add", bld.openBig(bld.add(va, vb)));
                  out.put("sub", bld.openBig(bld.sub(va, vb)));
                  out.put("negate", bld.openBig(bld.negate(va)));
                  out.put("mul", bld.openBig(bld.mul(va, vb)));
                  out.put("mulBySecret", bld.openBig(bld.mul(va, ss)));
                  out.put("mulByConstant", bld.openBig(bld.mul(va, c)));
                  out.put("mulByBigConstant", bld.openBig(bld.mul(va, bigC)));
                  SecretVector pab = bld.mul(va, vb);
                  SecretVector pas = bld.mul(va, ss);
                  out.put("addOfProducts", bld.openBig(bld.add(pab, pas)));
                  out.put("subOfProducts", bld.openBig(bld.sub(pas, pab)));
                  out.put("addConstant", bld.openBig(bld.add(va, d)));
                  out.put("addKnown", bld.openBig(bld.add(va, bld.known(k))));
                  out.put("sum", one(bld.openBig(bld.sum(va))));
                  out.put("sumOfList", one(bld.openBig(bld.sum(la))));
                  out.put("sumOfEmptyList", one(bld.openBig(bld.sum(List.of()))));
                  out.put("innerProduct", one(bld.openBig(bld.innerProduct(va, vb))));
                  out.put("innerProductOfLists", one(bld.openBig(bld.innerProduct(la, lb))));
                  out.put(
                      "linear",
                      bld.openBig(
                          bld.linear(
                              length,
                              List.of(va, vb, va),
                              new int[3],
                              java.util.Arrays.asList(small, null, signs),
                              constants)));
                  SecretVector rows = bld.concat(va, vb);
                  long[] minusOnes = new long[length];
                  java.util.Arrays.fill(minusOnes, -1);
                  out.put(
                      "linearOfRows",
                      bld.openBig(
                          bld.linear(
                              length,
                              List.of(rows, rows),
                              new int[] {1, 0},
                              List.of(signs, minusOnes),
                              null)));
                  out.put(
                      "linearOfNoTerms",
                      bld.openBig(bld.linear(length, List.of(), new int[0], List.of(), constants)));
                  out.put(
                      "sumRows",
                      bld.openBig(
                          bld.sumRows(
                              rows,
                              length,
                              new BigInteger[] {bigC, BigInteger.ONE.shiftLeft(70)})));
                  out.put("slice", bld.openBig(bld.slice(va, from, to)));
                  out.put("concat", bld.openBig(bld.concat(va, vb)));
                  if (length > 0) {
                    out.put("get", one(bld.openBig(bld.get(va, at))));
                  }
                  return () -> {
                    Map<String, BigInteger[]> values = new LinkedHashMap<>();
                    out.forEach((name, v) -> values.put(name, v.get()));
                    return values;
                  };
                });
    for (Result<Map<String, BigInteger[]>> r : results) {
      Map<String, BigInteger[]> got = r.value();
      assertEquals(expected.keySet(), got.keySet());
      for (String name : expected.keySet()) {
        String what = name + ", length " + length + ", at " + PartyId.of(r.metrics().party());
        assertCongruent(expected.get(name), got.get(name), f, what);
      }
    }
  }

  private static BigInteger[] map(int length, IntFunction<BigInteger> element) {
    BigInteger[] out = new BigInteger[length];
    for (int i = 0; i < length; i++) {
      out[i] = element.apply(i);
    }
    return out;
  }

  private static Deferred<BigInteger[]> one(Deferred<BigInteger> value) {
    return () -> new BigInteger[] {value.get()};
  }

  // ---- opening to one party ----

  /** What one party holds after opening to one receiver: read after the run. */
  private record Receipts(Deferred<Long> scalar, Deferred<long[]> vector, Deferred<long[]> empty) {}

  @EachFieldAndPartyCount
  void openTo_oneReceiver_onlyReceiverReadsValue(Field f, int n) {
    int receiver = n - 1;
    long x = 1234;
    long y = -567;
    long[] v = {3, -4, 5};
    List<Result<Receipts>> results =
        run(
            f,
            n,
            7,
            party ->
                b -> {
                  Secret sx = b.input(0, x, BITS);
                  Secret sy = b.input(receiver, y, BITS);
                  SecretVector sv = b.input(0, v, v.length, BITS);
                  Deferred<Long> scalar = b.openTo(receiver, b.add(b.mul(sx, sy), 5));
                  Deferred<long[]> vector = b.openTo(receiver, b.mul(sv, sy));
                  Deferred<long[]> empty = b.openTo(receiver, b.slice(sv, 1, 1));
                  return Deferred.of(new Receipts(scalar, vector, empty));
                });
    for (Result<Receipts> r : results) {
      int party = r.metrics().party();
      Receipts got = r.value();
      if (party == receiver) {
        assertEquals(x * y + 5, got.scalar().get());
        assertArrayEquals(new long[] {3 * y, -4 * y, 5 * y}, got.vector().get());
        assertArrayEquals(new long[0], got.empty().get());
      } else {
        String message = "value was opened to P" + receiver + " only, not to P" + party;
        for (Deferred<?> d : List.of(got.scalar(), got.vector(), got.empty())) {
          IllegalStateException e = assertThrows(IllegalStateException.class, d::get);
          assertEquals(message, e.getMessage());
        }
      }
    }
  }

  // ---- randomness ----

  @EachFieldAndPartyCount
  void randomBits_thousand_allZeroOrOneAndBothOccur(Field f, int n) {
    long x = 777;
    List<Result<List<long[]>>> results =
        runOnAll(
            f,
            n,
            9,
            b -> {
              SecretVector bits = b.randomBits(1000);
              List<Secret> single = new ArrayList<>();
              for (int i = 0; i < 64; i++) {
                single.add(b.randomBit());
              }
              SecretVector singles = b.vector(single);
              Deferred<long[]> opened = b.open(bits);
              Deferred<long[]> openedSingles = b.open(singles);
              // A shared bit must also multiply as one: bit * x is x or 0.
              Deferred<long[]> scaled = b.open(b.mul(bits, b.known(x)));
              return () -> List.of(opened.get(), openedSingles.get(), scaled.get());
            });
    long[] first = results.get(0).value().get(0);
    for (Result<List<long[]>> r : results) {
      long[] bits = r.value().get(0);
      long[] singles = r.value().get(1);
      long[] scaled = r.value().get(2);
      assertEquals(1000, bits.length);
      int ones = 0;
      for (int i = 0; i < bits.length; i++) {
        assertTrue(bits[i] == 0 || bits[i] == 1, "bit " + i + " is " + bits[i]);
        assertEquals(bits[i] * x, scaled[i], "bit " + i + " times " + x);
        ones += (int) bits[i];
      }
      assertTrue(ones > 0 && ones < 1000, "ones: " + ones);
      for (long bit : singles) {
        assertTrue(bit == 0 || bit == 1, "randomBit() opened to " + bit);
      }
      assertArrayEquals(first, bits, "every party opens the same bits");
    }
  }

  @EachFieldAndPartyCount
  void random_thousand_notAllEqualAndConsistent(Field f, int n) {
    long x = -31337;
    List<Result<List<BigInteger[]>>> results =
        runOnAll(
            f,
            n,
            10,
            b -> {
              SecretVector r = b.random(1000);
              Secret one = b.random();
              Secret sx = b.input(0, x, BITS);
              Deferred<BigInteger[]> opened = b.openBig(r);
              Deferred<BigInteger> openedOne = b.openBig(one);
              // The same secret opened twice, once plus x: the difference must be x.
              Deferred<BigInteger> shifted = b.openBig(b.add(one, sx));
              return () -> List.of(opened.get(), new BigInteger[] {openedOne.get(), shifted.get()});
            });
    BigInteger[] first = results.get(0).value().get(0);
    for (Result<List<BigInteger[]>> r : results) {
      BigInteger[] values = r.value().get(0);
      assertEquals(1000, values.length);
      long distinct = Stream.of(values).distinct().count();
      assertTrue(distinct > 1, "random(1000) opened to " + distinct + " distinct values");
      assertArrayEquals(first, values, "every party opens the same values");
      BigInteger[] pair = r.value().get(1);
      assertCongruent(big(x), pair[1].subtract(pair[0]), f, "(r + x) - r");
    }
  }

  // ---- sequential steps and loops ----

  @EachFieldAndPartyCount
  void loop_iterationCountFromOpenedValue_runsThatManyIterations(Field f, int n) {
    long x = 3;
    for (long iterations : new long[] {0, 1, 6}) {
      int last = n - 1;
      List<Result<long[]>> results =
          runOnAll(
              f,
              n,
              11,
              b -> {
                Secret sk = b.input(last, iterations, BITS);
                Secret sx = b.input(0, x, BITS);
                return b.seq(b1 -> b1.open(sk))
                    .seq(
                        (b2, k) ->
                            b2.loop(
                                new long[] {0, 1},
                                state -> state[0] < k,
                                (b3, state) -> {
                                  Secret power = b3.mul(b3.known(state[1]), sx);
                                  Deferred<Long> opened = b3.open(power);
                                  return () -> new long[] {state[0] + 1, opened.get()};
                                }));
              });
      long expectedPower = 1;
      for (int i = 0; i < iterations; i++) {
        expectedPower *= x;
      }
      for (Result<long[]> r : results) {
        assertArrayEquals(new long[] {iterations, expectedPower}, r.value());
        assertEquals(iterations, count(r.metrics().gates(), "multiply"), "one mul per iteration");
        assertEquals(iterations + 1, count(r.metrics().gates(), "open"), "opens");
      }
    }
  }

  @EachFieldAndPartyCount
  void seq_branchOnOpenedValue_takesThatBranch(Field f, int n) {
    long x = 41;
    long y = -17;
    for (long c : new long[] {5, -5}) {
      int last = n - 1;
      List<Result<Long>> results =
          runOnAll(
              f,
              n,
              12,
              b -> {
                Secret sc = b.input(0, c, BITS);
                Secret sx = b.input(last, x, BITS);
                Secret sy = b.input(0, y, BITS);
                return b.seq(b1 -> b1.open(sc))
                    .seq((b2, cv) -> cv > 0 ? b2.open(b2.mul(sx, sy)) : b2.open(b2.add(sx, sy)))
                    .seq((b3, v) -> b3.open(b3.add(sc, v)));
              });
      long expected = (c > 0 ? x * y : x + y) + c;
      for (Result<Long> r : results) {
        assertEquals(expected, r.value(), "c = " + c);
        assertEquals(c > 0 ? 1 : 0, count(r.metrics().gates(), "multiply"), "c = " + c);
      }
    }
  }

  // ---- parallel branches ----

  @EachFieldAndPartyCount
  void par_listOfBranches_returnsResultsInOrder(Field f, int n) {
    long x = 3;
    long y = 11;
    int branches = 12;
    List<Result<List<Long>>> results =
        runOnAll(
            f,
            n,
            13,
            b -> {
              Secret sx = b.input(0, x, BITS);
              Secret sy = b.input(n - 1, y, BITS);
              List<Computation<Long>> list = new ArrayList<>();
              for (int i = 0; i < branches; i++) {
                int branch = i;
                // Deeper branches first, so they cannot finish in list order by accident.
                int depth = 3 - branch % 4;
                list.add(
                    bb -> {
                      Secret z = sy;
                      for (int d = 0; d < depth; d++) {
                        z = bb.mul(z, sx);
                      }
                      return bb.open(bb.add(z, branch));
                    });
              }
              return b.par(list);
            });
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < branches; i++) {
      long z = y;
      for (int d = 0; d < 3 - i % 4; d++) {
        z *= x;
      }
      expected.add(z + i);
    }
    for (Result<List<Long>> r : results) {
      assertEquals(expected, r.value());
    }
  }

  @EachFieldAndPartyCount
  void par_singleBranch_returnsItsValue(Field f, int n) {
    List<Result<Long>> results =
        runOnAll(
            f,
            n,
            14,
            b -> {
              Secret sx = b.input(0, 12, BITS);
              return b.par(bb -> bb.open(bb.mul(sx, sx)));
            });
    for (Result<Long> r : results) {
      assertEquals(144L, r.value());
    }
  }

  // ---- round counts ----

  @EachFieldAndPartyCount
  void rounds_inputsFromAllParties_costOneInputLayer(Field f, int n) {
    List<Result<String>> results =
        runOnAll(
            f,
            n,
            15,
            b -> {
              for (int p = 0; p < n; p++) {
                b.input(p, p, BITS);
                b.input(p, new long[] {p, -p, 2 * p}, 3, BITS);
                b.input(p, big(p), BITS);
              }
              return Deferred.of("built");
            });
    for (Result<String> r : results) {
      RunMetrics m = r.metrics();
      assertEquals(roundsPerInput(), m.rounds(), "rounds");
      assertEquals(3L * n, count(m.gates(), "input"), "input gates");
      assertEquals(5L * n, count(m.elements(), "input"), "input elements");
      assertEquals(n, count(m.batches(), "input"), "one input batch per owner");
    }
  }

  @EachFieldAndPartyCount
  void rounds_tenThousandScalarMultiplicationsInOnePar_costOneMultiplyLayer(Field f, int n) {
    int count = 10_000;
    Random random = new Random(16);
    long[] xs = randomValues(random, count);
    long[] ys = randomValues(random, count);
    int last = n - 1;
    List<Result<BigInteger[]>> results =
        runOnAll(
            f,
            n,
            16,
            b -> {
              SecretVector vx = b.input(0, b.myId() == 0 ? xs : null, count, BITS);
              SecretVector vy = b.input(last, b.myId() == last ? ys : null, count, BITS);
              return b.par(
                  bb -> {
                    List<Secret> products = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                      products.add(bb.mul(bb.get(vx, i), bb.get(vy, i)));
                    }
                    return bb.openBig(bb.vector(products));
                  });
            });
    BigInteger[] expected = map(count, i -> big(xs[i]).multiply(big(ys[i])));
    for (Result<BigInteger[]> r : results) {
      RunMetrics m = r.metrics();
      assertCongruent(expected, r.value(), f, "products");
      assertEquals(
          roundsPerInput()
              + roundsPerMultiply()
              + roundsPerCheckBeforeOpen()
              + roundsPerOpen()
              + roundsPerFinalCheck(),
          m.rounds(),
          "rounds");
      assertEquals(count, count(m.gates(), "multiply"), "multiply gates");
      assertEquals(1, count(m.batches(), "multiply"), "multiply batches");
    }
  }

  @EachFieldAndPartyCount
  void rounds_dependentMultiplications_costOneMultiplyLayerEach(Field f, int n) {
    int depth = 5;
    List<Result<Long>> results =
        runOnAll(
            f,
            n,
            17,
            b -> {
              Secret z = b.input(0, 3, BITS);
              Secret y = b.input(n - 1, -2, BITS);
              for (int i = 0; i < depth; i++) {
                z = b.mul(z, y);
              }
              return b.open(z);
            });
    for (Result<Long> r : results) {
      assertEquals(3L * -32, r.value());
      assertEquals(
          roundsPerInput()
              + depth * roundsPerMultiply()
              + roundsPerCheckBeforeOpen()
              + roundsPerOpen()
              + roundsPerFinalCheck(),
          r.metrics().rounds(),
          "rounds");
    }
  }

  @EachFieldAndPartyCount
  void rounds_localOperations_costNoRounds(Field f, int n) {
    long x = 1234;
    long y = -99;
    Computation<BigInteger> bare =
        b -> b.openBig(b.mul(b.input(0, x, BITS), b.input(n - 1, y, BITS)));
    Computation<BigInteger> withLocal =
        b -> {
          Secret sx = b.input(0, x, BITS);
          Secret sy = b.input(n - 1, y, BITS);
          Secret lx = localChain(b, sx, sy);
          Secret product = b.mul(lx, sy);
          SecretVector v = b.vector(List.of(product, lx, sy));
          Secret z = b.sum(b.add(b.mul(v, 3), b.negate(b.slice(b.concat(v, v), 1, 4))));
          return b.openBig(localChain(b, z, sx));
        };
    BigInteger bx = big(x);
    BigInteger by = big(y);
    BigInteger lx = localChain(bx, by);
    BigInteger product = lx.multiply(by);
    BigInteger[] v = {product, lx, by};
    BigInteger z = BigInteger.ZERO;
    BigInteger[] shifted = {lx, by, product}; // slice(concat(v, v), 1, 4)
    for (int i = 0; i < 3; i++) {
      z = z.add(v[i].multiply(big(3))).subtract(shifted[i]);
    }
    BigInteger expectedWithLocal = localChain(z, bx);

    long expectedRounds =
        roundsPerInput()
            + roundsPerMultiply()
            + roundsPerCheckBeforeOpen()
            + roundsPerOpen()
            + roundsPerFinalCheck();
    for (Result<BigInteger> r : runOnAll(f, n, 18, bare)) {
      assertCongruent(bx.multiply(by), r.value(), f, "bare");
      assertEquals(expectedRounds, r.metrics().rounds(), "rounds without local operations");
    }
    for (Result<BigInteger> r : runOnAll(f, n, 18, withLocal)) {
      assertCongruent(expectedWithLocal, r.value(), f, "with local operations");
      assertEquals(expectedRounds, r.metrics().rounds(), "rounds with local operations");
      assertTrue(r.metrics().localGates() >= 200, "local gates: " + r.metrics().localGates());
    }
  }

  /** Two hundred linear operations, on secrets. */
  private static Secret localChain(Numeric b, Secret a, Secret other) {
    Secret s = a;
    for (int i = 0; i < 200; i++) {
      switch (i % 5) {
        case 0:
          s = b.add(s, other);
          break;
        case 1:
          s = b.sub(s, b.mul(other, 2));
          break;
        case 2:
          s = b.negate(s);
          break;
        case 3:
          s = b.add(s, i);
          break;
        default:
          s = b.sub(7, s);
          break;
      }
    }
    return s;
  }

  /** The same two hundred operations, in plaintext. */
  private static BigInteger localChain(BigInteger a, BigInteger other) {
    BigInteger s = a;
    for (int i = 0; i < 200; i++) {
      switch (i % 5) {
        case 0:
          s = s.add(other);
          break;
        case 1:
          s = s.subtract(other.multiply(big(2)));
          break;
        case 2:
          s = s.negate();
          break;
        case 3:
          s = s.add(big(i));
          break;
        default:
          s = big(7).subtract(s);
          break;
      }
    }
    return s;
  }

  @EachFieldAndPartyCount
  void rounds_open_costsOneOpenLayerEach(Field f, int n) {
    long x = -8;
    List<Result<Long>> single = runOnAll(f, n, 19, b -> b.open(b.input(0, x, BITS)));
    for (Result<Long> r : single) {
      assertEquals(x, r.value());
      assertEquals(
          roundsPerInput()
              + roundsPerInputCheckBeforeOpen()
              + roundsPerOpen()
              + roundsPerFinalCheck(),
          r.metrics().rounds());
    }
    List<Result<Long>> chained =
        runOnAll(
            f,
            n,
            19,
            b -> {
              Secret sx = b.input(0, x, BITS);
              return b.seq(b1 -> b1.open(sx))
                  .seq((b2, v) -> b2.open(b2.add(sx, v)))
                  .seq((b3, v) -> b3.open(b3.add(sx, v)));
            });
    for (Result<Long> r : chained) {
      assertEquals(3 * x, r.value());
      assertEquals(
          roundsPerInput()
              + roundsPerInputCheckBeforeOpen()
              + 3 * roundsPerOpen()
              + 2 * roundsPerCheckBeforeOpen()
              + roundsPerFinalCheck(),
          r.metrics().rounds(),
          "each opening depends on the one before");
      assertEquals(3, count(r.metrics().gates(), "open"));
    }
  }

  // ---- caller mistakes ----

  @EachFieldAndPartyCount
  void input_valueOutsideDeclaredBits_failsNamingTheParty(Field f, int n) {
    int owner = n - 1;
    String position0 =
        "P"
            + owner
            + "'s input at position 0 is outside the declared 20-bit signed range"
            + " [-2^19, 2^19)";
    assertInputRejected(f, n, owner, position0, b -> b.input(owner, 1L << 19, 20));
    BigInteger belowMin = BigInteger.ONE.shiftLeft(19).negate().subtract(BigInteger.ONE);
    assertInputRejected(f, n, owner, position0, b -> b.input(owner, belowMin, 20));
    assertInputRejected(
        f,
        n,
        owner,
        "P"
            + owner
            + "'s input at position 2 is outside the declared 20-bit signed range"
            + " [-2^19, 2^19)",
        b -> b.input(owner, new long[] {0, -1, 1L << 40}, 3, 20));
  }

  private void assertInputRejected(
      Field f, int n, int owner, String message, Function<Numeric, ?> input) {
    PartyFailedException e =
        runFailing(
            f,
            n,
            b -> {
              var unused = input.apply(b); // recording the gates is the point
              return Deferred.of(0);
            });
    assertEquals(PartyId.of(owner), e.party());
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
    assertEquals(message, e.getCause().getMessage());
    assertEquals("P" + owner + " failed: " + message, e.getMessage());
  }

  @EachFieldAndPartyCount
  void input_partyOutOfRange_failsNamingTheParty(Field f, int n) {
    String parties = ", but the parties are P0..P" + (n - 1);
    assertEveryPartyRejects(f, n, "input names party " + n + parties, b -> b.input(n, 1, BITS));
    assertEveryPartyRejects(
        f, n, "input names party -1" + parties, b -> b.input(-1, BigInteger.ONE, BITS));
    assertEveryPartyRejects(
        f, n, "input names party " + n + parties, b -> b.input(n, new long[] {1}, 1, BITS));
  }

  @EachFieldAndPartyCount
  void linear_badShape_failsSayingWhatIsWrong(Field f, int n) {
    assertEveryPartyRejects(
        f,
        n,
        "coefficient 2147483648 of a linear form is not below 2^31 in magnitude",
        b ->
            b.linear(
                1,
                List.of(b.known(new long[1])),
                new int[1],
                List.of(new long[] {1L << 31}),
                null));
    assertEveryPartyRejects(
        f,
        n,
        "row 2 of 3 elements is outside a vector of length 6",
        b -> b.linear(3, List.of(b.known(new long[6])), new int[] {2}, List.of(new long[3]), null));
    assertEveryPartyRejects(
        f,
        n,
        "a linear form needs one row and one coefficient array per vector: 1 vectors, 2 rows, 1"
            + " coefficient arrays, n = 3",
        b -> b.linear(3, List.of(b.known(new long[3])), new int[2], List.of(new long[3]), null));
    assertEveryPartyRejects(
        f,
        n,
        "3 scalars for rows of 2 elements do not match a vector of length 5",
        b -> b.sumRows(b.known(new long[5]), 2, new BigInteger[3]));
  }

  @EachFieldAndPartyCount
  void openTo_partyOutOfRange_failsNamingTheParty(Field f, int n) {
    String parties = ", but the parties are P0..P" + (n - 1);
    assertEveryPartyRejects(
        f, n, "openTo names party " + n + parties, b -> b.openTo(n, b.input(0, 1, BITS)));
    assertEveryPartyRejects(
        f,
        n,
        "openTo names party -1" + parties,
        b -> b.openTo(-1, b.input(0, new long[] {1, 2}, 2, BITS)));
  }

  @EachFieldAndPartyCount
  void input_bitsBeyondField_failsNamingTheLimit(Field f, int n) {
    int bits = f.bitLength();
    String field = " for the field " + f.name() + " (" + f.bitLength() + " bits)";
    int longMax = Math.min(64, f.bitLength() - 1);
    int bigMax = f.bitLength() - 1;
    assertEveryPartyRejects(
        f,
        n,
        "bit length (" + bits + ") must be in [1, " + longMax + "]" + field,
        b -> b.input(0, 1, bits));
    assertEveryPartyRejects(
        f,
        n,
        "bit length (65) must be in [1, " + longMax + "]" + field,
        b -> b.input(0, new long[] {1}, 1, 65));
    assertEveryPartyRejects(
        f,
        n,
        "bit length (" + bits + ") must be in [1, " + bigMax + "]" + field,
        b -> b.input(n - 1, BigInteger.ONE, bits));
    assertEveryPartyRejects(
        f, n, "bit length (0) must be in [1, " + longMax + "]" + field, b -> b.input(0, 0, 0));
  }

  /** A mistake every party makes while building: each fails with the same message. */
  private void assertEveryPartyRejects(
      Field f, int n, String message, Function<Numeric, ?> mistake) {
    PartyFailedException e =
        runFailing(
            f,
            n,
            b -> {
              var unused = mistake.apply(b); // recording the gates is the point
              return Deferred.of(0);
            });
    assertInstanceOf(IllegalArgumentException.class, e.getCause());
    assertEquals(message, e.getCause().getMessage());
    assertEquals(e.party() + " failed: " + message, e.getMessage());
  }

  // ---- a failing party ----

  @EachFieldAndPartyCount
  void partyFailure_onlyP1ThrowsWhileBuilding_runFailsNamingP1Promptly(Field f, int n) {
    assumeTrue(n >= 2);
    PartyFailedException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                runFailing(
                    f,
                    n,
                    b -> {
                      if (b.myId() == 1) {
                        throw new IllegalStateException("boom");
                      }
                      Secret x = b.input(0, 5, BITS);
                      return b.open(b.mul(x, x));
                    }));
    assertP1Boom(e);
    // Everyone else was waiting for P1's frames: they fail on the network, blaming P1.
    assertEquals(n - 1, e.getSuppressed().length);
    for (Throwable other : e.getSuppressed()) {
      assertInstanceOf(PartyFailedException.class, other);
      assertInstanceOf(NetworkException.class, other.getCause());
      assertTrue(other.getMessage().contains("boom"), other.getMessage());
    }
  }

  @EachFieldAndPartyCount
  void partyFailure_onlyP1ThrowsInLaterStep_runFailsNamingP1Promptly(Field f, int n) {
    assumeTrue(n >= 2);
    PartyFailedException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10),
            () ->
                runFailing(
                    f,
                    n,
                    b -> {
                      Secret x = b.input(0, 5, BITS);
                      return b.seq(b1 -> b1.open(x))
                          .seq(
                              (b2, v) -> {
                                if (b2.myId() == 1) {
                                  throw new IllegalStateException("boom");
                                }
                                return b2.open(b2.mul(x, b2.known(v)));
                              });
                    }));
    assertP1Boom(e);
  }

  private static void assertP1Boom(PartyFailedException e) {
    assertEquals(PartyId.of(1), e.party());
    assertEquals("P1 failed: boom", e.getMessage());
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals("boom", e.getCause().getMessage());
  }

  @EachFieldAndPartyCount
  void run_noInteractiveGates_everyPartyReportsItselfInNoRounds(Field f, int n) {
    List<Result<List<Integer>>> results =
        runOnAll(f, n, 20, b -> Deferred.of(List.of(b.myId(), b.parties(), b.fieldBits())));
    for (int p = 0; p < n; p++) {
      assertEquals(List.of(p, n, f.bitLength()), results.get(p).value());
      assertEquals(p, results.get(p).metrics().party());
      assertEquals(0, results.get(p).metrics().rounds());
    }
  }

  // ---- sessions batched into lanes ----

  /** Runs sessions 0..count−1 at every party, session i by program {@code shape.apply(i)}. */
  private List<SessionsResult<List<Long>>> runSessions(
      Field f, int n, int count, IntFunction<LaneProgram> shape, int parallelism) {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(11);
    return new LocalParties(n, suite(f, n), config, TIMEOUT)
        .runSessionsEach(
            party -> {
              List<Computation<List<Long>>> list = new ArrayList<>(count);
              for (int i = 0; i < count; i++) {
                list.add(shape.apply(i).computation(i, party));
              }
              return list;
            },
            parallelism);
  }

  private static void assertSessions(
      List<SessionsResult<List<Long>>> results,
      IntFunction<LaneProgram> shape,
      int count,
      String what) {
    for (int p = 0; p < results.size(); p++) {
      List<List<Long>> values = results.get(p).values();
      assertEquals(count, values.size(), what);
      for (int i = 0; i < count; i++) {
        assertEquals(
            shape.apply(i).expected(i, p), values.get(i), what + ", P" + p + ", session " + i);
      }
    }
  }

  /**
   * Sessions of one shape, started together, are built as lanes of one batch: their values match
   * the BigInteger reference at every parallelism, each computation is called once per party and
   * run, a batch of all of them takes one open gate per opening call (holding every session's
   * value) and the rounds of a single session.
   */
  @EachFieldAndPartyCount
  void sessionsOfOneShape_builtAsLanes_matchTheReference(Field f, int n) {
    int count = 100;
    // a random program, with a sum of a list in it for certain
    LaneProgram program =
        LaneProgram.random(41 + n, n, 24, false, count)
            .with(LaneProgram.Kind.SUM_OF_LIST, n + 2, count);
    int[] parallelisms = {1, 9, count};
    List<SessionsResult<List<Long>>> all = null;
    for (int k : parallelisms) {
      all = runSessions(f, n, count, i -> program, k);
      assertSessions(all, i -> program, count, "parallelism " + k);
    }
    for (int i = 0; i < count; i++) {
      assertEquals(parallelisms.length * n, program.builds(i), "builds of session " + i);
    }
    int opens = program.count(LaneProgram.Kind.OPEN) + program.count(LaneProgram.Kind.OPEN_TO);
    RunMetrics batch = all.get(0).metrics();
    assertEquals(opens, batch.gates().get("open"), "one open gate per opening call");
    assertEquals((long) opens * count, batch.elements().get("open"), "a value per session");
    LaneProgram alone =
        LaneProgram.random(41 + n, n, 24, false, 1).with(LaneProgram.Kind.SUM_OF_LIST, n + 2, 1);
    long oneSession = runSessions(f, n, 1, i -> alone, 1).get(0).metrics().rounds();
    assertEquals(oneSession, batch.rounds(), "the batch takes the rounds of one session");
  }

  /**
   * Sessions of several shapes: one that differs from the batch mid-way, one that makes a call the
   * batch cannot take (a sum of a list), one that ends with a step, one that stops short. Each is
   * built on its own from where it differs, is called once, and every value matches the reference;
   * so does a run whose very first session cannot be batched.
   */
  @EachFieldAndPartyCount
  void sessionsOfMixedShapes_eachCalledOnce_matchTheReference(Field f, int n) {
    int count = 90;
    LaneProgram a = LaneProgram.random(57 + n, n, 20, false, count);
    LaneProgram extra = a.with(LaneProgram.Kind.MUL_CONSTANT, n + 3, count);
    LaneProgram sum = a.with(LaneProgram.Kind.SUM, n + 5, count);
    LaneProgram step = a.with(LaneProgram.Kind.STEP, a.size(), count);
    LaneProgram shorter = a.prefix(a.size() - 2, count);
    IntFunction<LaneProgram> mixed =
        i ->
            i % 13 == 5
                ? extra
                : i % 17 == 3 ? sum : i % 19 == 7 ? step : i % 23 == 11 ? shorter : a;
    IntFunction<LaneProgram> firstUnbatched = i -> i == 0 ? sum : a;
    int[] parallelisms = {1, 8, 40, count};
    for (int k : parallelisms) {
      assertSessions(runSessions(f, n, count, mixed, k), mixed, count, "mixed, parallelism " + k);
      assertSessions(
          runSessions(f, n, count, firstUnbatched, k),
          firstUnbatched,
          count,
          "first unbatched, parallelism " + k);
    }
    for (int i = 0; i < count; i++) {
      int builds = a.builds(i) + extra.builds(i) + sum.builds(i) + step.builds(i);
      builds += shorter.builds(i);
      assertEquals(2 * parallelisms.length * n, builds, "builds of session " + i);
    }
  }
}
