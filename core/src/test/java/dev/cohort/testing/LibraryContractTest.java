package dev.cohort.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.lib.BitDecomposition;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Division;
import dev.cohort.lib.Equality;
import dev.cohort.lib.Extremes;
import dev.cohort.lib.FixedPoint;
import dev.cohort.lib.Select;
import dev.cohort.lib.Sorting;
import dev.cohort.lib.Statistics;
import dev.cohort.suite.SuiteFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The standard library against plaintext, on any suite: comparisons, equality, truncation and
 * selection over random and edge values (0, ±1, the ends of the declared range, equal operands), in
 * batches of length 0, 1, odd and large, with round counts that do not grow with the batch.
 */
public abstract class LibraryContractTest {

  protected static final Field FIELD = Fields.MERSENNE_127;

  /** The suite under test over {@code field}. */
  protected abstract SuiteFactory suite(Field field);

  /** How many parties to run. */
  protected abstract int parties();

  /**
   * Rounds an opening waits for the check of the values opened and input before it (SPDZ's MAC
   * check before any opening but Beaver's); 0 when openings need none.
   */
  protected int roundsPerCheckBeforeOpen() {
    return 0;
  }

  /** Rounds an input layer costs beyond one. */
  protected int extraInputRounds() {
    return 0;
  }

  protected <T> List<Result<T>> run(Field field, long seed, Computation<T> c) {
    return new LocalParties(
            parties(),
            suite(field),
            EngineConfig.defaults().withInsecureSeed(seed),
            Duration.ofSeconds(60))
        .run(c);
  }

  /** Values of k bits: the edges of the range first, then random ones. */
  protected static long[] values(int k, int count, long seed) {
    long min = k == 64 ? Long.MIN_VALUE : -(1L << (k - 1));
    long max = k == 64 ? Long.MAX_VALUE : (1L << (k - 1)) - 1;
    long[] edges = {0, 1, -1, min, max, min + 1, max - 1, 2, -2};
    Random random = new Random(seed);
    long[] out = new long[count];
    int edge = 0;
    for (int i = 0; i < count; i++) {
      while (edge < edges.length && (edges[edge] < min || edges[edge] > max)) {
        edge++;
      }
      if (edge < edges.length) {
        out[i] = edges[edge++];
      } else {
        long r = random.nextLong();
        out[i] = k == 64 ? r : Math.floorMod(r, 1L << k) + min;
      }
    }
    return out;
  }

  /** Runs {@code op} on inputs x (P0) and y (P1) and opens the result at every party. */
  private List<Result<long[]>> binary(
      long[] x, long[] y, int k, BiFunction<Numeric, SecretVector[], SecretVector> op) {
    return run(
        FIELD,
        17,
        b -> {
          SecretVector a = b.input(0, b.myId() == 0 ? x : null, x.length, k);
          SecretVector c = b.input(1, b.myId() == 1 ? y : null, y.length, k);
          return b.open(op.apply(b, new SecretVector[] {a, c}));
        });
  }

  private static long[] pairsWithEqualOperands(long[] xs, long[] ys) {
    long[] y = ys.clone();
    for (int i = 0; i < y.length; i += 5) {
      y[i] = xs[i]; // every fifth pair is equal
    }
    return y;
  }

  @ParameterizedTest
  @ValueSource(ints = {8, 32, 64})
  void lessThan_edgeAndRandomValues_matchesPlaintext(int k) {
    long[] x = values(k, 61, 1);
    long[] y = pairsWithEqualOperands(x, values(k, 61, 2));
    for (Result<long[]> r : binary(x, y, k, (b, v) -> Comparison.lessThan(b, v[0], v[1], k))) {
      for (int i = 0; i < x.length; i++) {
        assertEquals(x[i] < y[i] ? 1 : 0, r.value()[i], x[i] + " < " + y[i]);
      }
    }
  }

  @Test
  void orderRelations_32bit_matchPlaintext() {
    int k = 32;
    long[] x = values(k, 41, 3);
    long[] y = pairsWithEqualOperands(x, values(k, 41, 4));
    List<Result<long[]>> results =
        binary(
            x,
            y,
            k,
            (b, v) ->
                b.concat(
                    b.concat(
                        Comparison.lessOrEqual(b, v[0], v[1], k),
                        Comparison.greaterThan(b, v[0], v[1], k)),
                    Comparison.greaterOrEqual(b, v[0], v[1], k)));
    int n = x.length;
    for (Result<long[]> r : results) {
      for (int i = 0; i < n; i++) {
        assertEquals(x[i] <= y[i] ? 1 : 0, r.value()[i], x[i] + " <= " + y[i]);
        assertEquals(x[i] > y[i] ? 1 : 0, r.value()[n + i], x[i] + " > " + y[i]);
        assertEquals(x[i] >= y[i] ? 1 : 0, r.value()[2 * n + i], x[i] + " >= " + y[i]);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16, 32, 64})
  void equal_edgeAndRandomValues_matchesPlaintext(int k) {
    long[] x = values(k, 40, 5);
    long[] y = pairsWithEqualOperands(x, values(k, 40, 6));
    for (Result<long[]> r : binary(x, y, k, (b, v) -> Equality.equal(b, v[0], v[1], k))) {
      for (int i = 0; i < x.length; i++) {
        assertEquals(x[i] == y[i] ? 1 : 0, r.value()[i], x[i] + " == " + y[i]);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 5, 31})
  void truncate_32bitValues_floorDivisionByPowerOfTwo(int m) {
    int k = 32;
    long[] x = values(k, 33, 7);
    for (Result<long[]> r : binary(x, x, k, (b, v) -> Comparison.truncate(b, v[0], k, m, 40))) {
      for (int i = 0; i < x.length; i++) {
        assertEquals(Math.floorDiv(x[i], 1L << m), r.value()[i], x[i] + " >> " + m);
      }
    }
  }

  @Test
  void mod2m_32bitValues_matchesFloorMod() {
    int k = 32;
    int m = 12;
    long[] x = values(k, 33, 8);
    for (Result<long[]> r : binary(x, x, k, (b, v) -> Comparison.mod2m(b, v[0], k, m, 40))) {
      for (int i = 0; i < x.length; i++) {
        assertEquals(Math.floorMod(x[i], 1L << m), r.value()[i], x[i] + " mod 2^" + m);
      }
    }
  }

  @Test
  void mux_secretChoice_picksElementwise() {
    int k = 16;
    long[] x = values(k, 21, 9);
    long[] y = values(k, 21, 10);
    for (Result<long[]> r :
        binary(
            x, y, k, (b, v) -> Select.mux(b, Comparison.lessThan(b, v[0], v[1], k), v[0], v[1]))) {
      for (int i = 0; i < x.length; i++) {
        assertEquals(Math.min(x[i], y[i]), r.value()[i]);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 7})
  void lessThan_shortBatches_matchPlaintext(int length) {
    long[] x = values(32, length, 11);
    long[] y = values(32, length, 12);
    for (Result<long[]> r : binary(x, y, 32, (b, v) -> Comparison.lessThan(b, v[0], v[1], 32))) {
      long[] expected = new long[length];
      for (int i = 0; i < length; i++) {
        expected[i] = x[i] < y[i] ? 1 : 0;
      }
      assertArrayEquals(expected, r.value());
    }
  }

  @Test
  void lessThanAndEqual_batchOf1000_sameRoundsAsOnePair() {
    List<Long> rounds = new ArrayList<>();
    for (int length : new int[] {1, 1000}) {
      long[] x = values(32, length, 13);
      long[] y = values(32, length, 14);
      List<Result<long[]>> results =
          binary(
              x,
              y,
              32,
              (b, v) ->
                  b.concat(
                      Comparison.lessThan(b, v[0], v[1], 32), Equality.equal(b, v[0], v[1], 32)));
      rounds.add(results.get(0).metrics().rounds());
    }
    assertEquals(rounds.get(0), rounds.get(1), "rounds for 1 and for 1000 comparisons");
    // input (1) + random bits (2) + open (1) + ⌈log2 16⌉ tree levels over pairs of bits (4) +
    // output (1); equality (two openings, a tree over 6 bits) fits inside; a suite whose inputs
    // take more rounds adds them, and SPDZ its checks: its end check (within the 12) and a check
    // before each of the three openings in sequence (the masked c's, equality's second level, the
    // output)
    int bound = 12 + extraInputRounds() + 3 * roundsPerCheckBeforeOpen();
    assertTrue(rounds.get(0) <= bound, "comparison rounds: " + rounds.get(0));
  }

  @Test
  void randomMasks_opened_belowPartiesTimesPowerOfTwoAndNotConstant() {
    int bits = 20;
    long bound = (long) parties() << bits;
    long[] masks = run(FIELD, 23, b -> b.open(b.randomMasks(500, bits))).get(0).value();
    long distinct = java.util.Arrays.stream(masks).distinct().count();
    for (long m : masks) {
      assertTrue(m >= 0 && m < bound, "mask " + m + " outside [0, " + bound + ")");
    }
    assertTrue(distinct > 400, "only " + distinct + " distinct masks of 500");
  }

  @Test
  void lessThan_fieldTooSmall_refusedWithSizeNeeded() {
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                run(
                    Fields.MERSENNE_61,
                    1,
                    b -> {
                      SecretVector a = b.input(0, new long[] {1}, 1, 32);
                      return b.open(Comparison.lessThan(b, a, a, 32));
                    }));
    assertEquals(
        "comparison of 32-bit values with κ = 40 needs a field of more than 74 bits;"
            + " this field has 61 (use 2^127-1)",
        e.getCause().getMessage());
  }

  /** Runs {@code op} on one input vector of P0 and opens the resulting secrets at every party. */
  private List<Result<long[]>> unary(
      long[] x, int k, BiFunction<Numeric, SecretVector, List<Secret>> op) {
    return run(
        FIELD,
        23,
        b -> {
          SecretVector a = b.input(0, b.myId() == 0 ? x : null, x.length, k);
          return b.open(b.vector(op.apply(b, a)));
        });
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 7, 16})
  void extremes_listsOfSeveralLengths_matchPlaintext(int length) {
    int k = 32;
    long[] x = values(k, length, 31 + length);
    if (length > 3) {
      x[length - 1] = Arrays.stream(x).max().getAsLong(); // a tie for the maximum
    }
    List<Result<long[]>> results =
        unary(
            x,
            k,
            (b, v) ->
                List.of(Extremes.min(b, v, k), Extremes.max(b, v, k), Extremes.argmax(b, v, k)));
    long max = Arrays.stream(x).max().getAsLong();
    int firstMax = 0;
    while (x[firstMax] != max) {
      firstMax++;
    }
    for (Result<long[]> r : results) {
      assertEquals(Arrays.stream(x).min().getAsLong(), r.value()[0]);
      assertEquals(max, r.value()[1]);
      assertEquals(firstMax, r.value()[2], "argmax of " + Arrays.toString(x));
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2, 5, 8, 13})
  void sort_withPayload_matchesPlaintextSort(int length) {
    int k = 16;
    long[] keys = values(k, length, 41 + length);
    long[] payload = new long[length];
    for (int i = 0; i < length; i++) {
      payload[i] = 1000 + i;
    }
    List<Result<long[]>> results =
        run(
            FIELD,
            29,
            b -> {
              SecretVector key = b.input(0, b.myId() == 0 ? keys : null, length, k);
              SecretVector pay = b.input(1, b.myId() == 1 ? payload : null, length, k);
              List<SecretVector> sorted = Sorting.sort(b, key, List.of(pay), k);
              return b.open(b.concat(sorted.get(0), sorted.get(1)));
            });
    long[] expected = keys.clone();
    Arrays.sort(expected);
    for (Result<long[]> r : results) {
      long[] sortedKeys = Arrays.copyOfRange(r.value(), 0, length);
      assertArrayEquals(expected, sortedKeys);
      for (int i = 0; i < length; i++) {
        int origin = (int) (r.value()[length + i] - 1000);
        assertEquals(keys[origin], sortedKeys[i], "payload moved with its key");
      }
      long[] origins = Arrays.copyOfRange(r.value(), length, 2 * length);
      Arrays.sort(origins);
      for (int i = 0; i < length; i++) {
        assertEquals(1000 + i, origins[i], "payload is a permutation");
      }
    }
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 3, 10, 1000, 65537})
  void divideByConstant_32bitValues_floorDivision(long d) {
    int k = 32;
    long[] x = values(k, 25, 51);
    for (Result<long[]> r :
        unary(
            x,
            k,
            (b, v) ->
                List.of(
                    b.get(Division.byConstant(b, v, d, k), 0),
                    b.get(Division.byConstant(b, v, d, k), x.length - 1),
                    b.get(Division.byConstant(b, v, d, k), 3)))) {
      assertEquals(Math.floorDiv(x[0], d), r.value()[0]);
      assertEquals(Math.floorDiv(x[x.length - 1], d), r.value()[1]);
      assertEquals(Math.floorDiv(x[3], d), r.value()[2], x[3] + " / " + d);
    }
  }

  @Test
  void divideBySecret_16bitValues_floorDivision() {
    long[] a = {0, 1, 7, 100, 32767, 5000, 12};
    long[] d = {1, 1, 2, 7, 3, 5000, 13};
    List<Result<long[]>> results =
        run(
            FIELD,
            37,
            b -> {
              SecretVector x = b.input(0, b.myId() == 0 ? a : null, a.length, 17);
              SecretVector y = b.input(1, b.myId() == 1 ? d : null, d.length, 17);
              return b.open(Division.bySecret(b, x, 16, y, 16, 40));
            });
    for (Result<long[]> r : results) {
      for (int i = 0; i < a.length; i++) {
        assertEquals(a[i] / d[i], r.value()[i], a[i] + " / " + d[i]);
      }
    }
  }

  @Test
  void fixedPoint_mulAndDiv_withinOneUnitInTheLastPlace() {
    FixedPoint fixed = FixedPoint.of(24, 8);
    double[] xs = {1.5, -2.25, 3.0, -0.5, 100.125};
    double[] ys = {2.0, 0.75, -1.5, -4.0, 3.0};
    long[] x = Arrays.stream(xs).mapToLong(fixed::encode).toArray();
    long[] y = Arrays.stream(ys).mapToLong(fixed::encode).toArray();
    List<Result<long[]>> results =
        binary(x, y, 24, (b, v) -> b.concat(fixed.mul(b, v[0], v[1]), fixed.div(b, v[0], v[1])));
    double ulp = Math.scalb(1.0, -8);
    for (Result<long[]> r : results) {
      for (int i = 0; i < xs.length; i++) {
        assertEquals(xs[i] * ys[i], fixed.decode(r.value()[i]), ulp, xs[i] + " * " + ys[i]);
        assertEquals(
            xs[i] / ys[i], fixed.decode(r.value()[xs.length + i]), ulp, xs[i] + " / " + ys[i]);
      }
    }
  }

  @Test
  void statistics_meanVarianceAndFilteredAverage_withinOneUnitInTheLastPlace() {
    int k = 16;
    int f = 10;
    long[] x = {3, -7, 12, 0, 5, 5, -1, 30};
    long[] selected = {1, 0, 1, 1, 0, 1, 0, 1};
    List<Result<long[]>> results =
        run(
            FIELD,
            43,
            b -> {
              SecretVector v = b.input(0, b.myId() == 0 ? x : null, x.length, k);
              SecretVector s = b.input(1, b.myId() == 1 ? selected : null, x.length, 2);
              return b.open(
                  b.vector(
                      List.of(
                          Statistics.sum(b, v),
                          Statistics.mean(b, v, k, f),
                          Statistics.variance(b, v, k, f),
                          Statistics.filteredAverage(b, v, s, k, f))));
            });
    double mean = Arrays.stream(x).average().getAsDouble();
    double variance = Arrays.stream(x).mapToDouble(v -> (v - mean) * (v - mean)).sum() / x.length;
    double selectedSum = 0;
    int count = 0;
    for (int i = 0; i < x.length; i++) {
      selectedSum += x[i] * selected[i];
      count += (int) selected[i];
    }
    double ulp = Math.scalb(1.0, -f);
    for (Result<long[]> r : results) {
      assertEquals(Arrays.stream(x).sum(), r.value()[0]);
      assertEquals(mean, Math.scalb((double) r.value()[1], -f), ulp);
      assertEquals(variance, Math.scalb((double) r.value()[2], -f), ulp);
      assertEquals(selectedSum / count, Math.scalb((double) r.value()[3], -f), ulp);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 8, 32})
  void bitDecomposition_edgeAndRandomValues_twosComplementBits(int k) {
    long[] x = values(k, 19, 61 + k);
    List<Result<long[]>> results =
        run(
            FIELD,
            47,
            b -> {
              SecretVector a = b.input(0, b.myId() == 0 ? x : null, x.length, k);
              return b.open(BitDecomposition.decompose(b, a, k, 40));
            });
    int n = x.length;
    for (Result<long[]> r : results) {
      for (int j = 0; j < n; j++) {
        for (int i = 0; i < k; i++) {
          assertEquals((x[j] >>> i) & 1, r.value()[i * n + j], "bit " + i + " of " + x[j]);
        }
      }
    }
  }
}
