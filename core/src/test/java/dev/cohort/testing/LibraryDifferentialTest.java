package dev.cohort.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.lib.BitDecomposition;
import dev.cohort.lib.Bits;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Division;
import dev.cohort.lib.Equality;
import dev.cohort.lib.Extremes;
import dev.cohort.lib.FixedPoint;
import dev.cohort.lib.Select;
import dev.cohort.lib.Sorting;
import dev.cohort.lib.Statistics;
import dev.cohort.suite.SuiteFactory;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every operation of the standard library against an exact oracle written here (BigInteger floor
 * division, the first index among ties, sorting in the clear), at the edges of each declared range
 * (−2^(k−1), 2^(k−1) − 1, 0, ±1) and on random values from fixed seeds, over 2^61 − 1 and 2^127 − 1
 * for every bit length the field allows. Unlike {@link LibraryContractTest} it never takes the
 * plaintext suite as the oracle: the plaintext suite runs the same library code and would share its
 * bugs.
 *
 * <p>Each test is one computation with all its cases side by side, so it costs the rounds of its
 * deepest case, not their sum. Every party checks every opened value; the parties are honest and
 * the checks do not depend on round counts.
 */
public abstract class LibraryDifferentialTest {

  /** The suite under test over {@code field}. */
  protected abstract SuiteFactory suite(Field field);

  /** How many parties to run (at least two: the inputs come from P0 and P1). */
  protected abstract int parties();

  private static final BigInteger TWO = BigInteger.valueOf(2);

  private static Field field(int bits) {
    return bits == 61 ? Fields.MERSENNE_61 : Fields.MERSENNE_127;
  }

  /** Bit lengths of comparison operands each field allows with κ = 40 (k + κ + 2 bits). */
  private static int[] comparisonBits(int fieldBits) {
    return fieldBits == 61 ? new int[] {1, 2, 8, 18} : new int[] {1, 2, 31, 32, 63, 64};
  }

  // ---- the harness ----

  /** The cases of one computation at one party: opened results and their exact values. */
  private static final class Cases {
    private final Numeric b;
    private final List<String> labels = new ArrayList<>();
    private final List<Deferred<BigInteger[]>> opened = new ArrayList<>();
    private final List<Function<BigInteger[], List<String>>> validators = new ArrayList<>();

    Cases(Numeric b) {
      this.b = b;
    }

    /** P0's input of {@code values}, declared with {@code bits} bits. */
    SecretVector x(long[] values, int bits) {
      return b.input(0, b.myId() == 0 ? values : null, values.length, bits);
    }

    /** P1's input of {@code values}, declared with {@code bits} bits. */
    SecretVector y(long[] values, int bits) {
      return b.input(1, b.myId() == 1 ? values : null, values.length, bits);
    }

    void check(String label, SecretVector result, BigInteger[] exact) {
      check(
          label,
          result,
          got -> {
            if (got.length != exact.length) {
              return List.of(label + ": " + got.length + " values, expected " + exact.length);
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < exact.length; i++) {
              if (!got[i].equals(exact[i])) {
                out.add(label + "[" + i + "]: opened " + got[i] + ", expected " + exact[i]);
              }
            }
            return out;
          });
    }

    /** Opens {@code result} and lets {@code validator} list what is wrong with it. */
    void check(String label, SecretVector result, Function<BigInteger[], List<String>> validator) {
      labels.add(label);
      opened.add(b.openBig(result));
      validators.add(validator);
    }

    void check(String label, SecretVector result, long[] exact) {
      check(label, result, big(exact));
    }

    void check(String label, Secret result, BigInteger exact) {
      check(label, b.vector(List.of(result)), new BigInteger[] {exact});
    }

    /** The mismatches, as "label[i]: opened x, expected y" lines, once the values are open. */
    Deferred<List<String>> mismatches() {
      return () -> {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < labels.size(); c++) {
          out.addAll(validators.get(c).apply(opened.get(c).get()));
        }
        return out;
      };
    }
  }

  private interface CaseBuilder {
    void build(Cases cases);
  }

  /** Runs the cases of {@code builder} as one computation and fails on any mismatch. */
  private void verify(int fieldBits, long seed, CaseBuilder builder) {
    Computation<List<String>> computation =
        b -> {
          Cases cases = new Cases(b);
          builder.build(cases);
          return cases.mismatches();
        };
    List<Result<List<String>>> results =
        new LocalParties(
                parties(),
                suite(field(fieldBits)),
                EngineConfig.defaults().withInsecureSeed(seed),
                Duration.ofSeconds(120))
            .run(computation);
    for (int p = 0; p < results.size(); p++) {
      List<String> wrong = results.get(p).value();
      assertEquals(
          List.of(),
          wrong.subList(0, Math.min(wrong.size(), 20)),
          "P" + p + ": " + wrong.size() + " wrong values over 2^" + fieldBits + " - 1");
    }
  }

  // ---- inputs ----

  /** The edges of the k-bit signed range first, then random k-bit values. */
  static long[] values(int k, int count, long seed) {
    long min = min(k);
    long max = max(k);
    long[] edges = {min, max, 0, 1, -1, min + 1, max - 1, min / 2, max / 2};
    Random random = new Random(seed);
    long[] out = new long[count];
    int at = 0;
    for (long e : edges) {
      if (at < count && e >= min && e <= max && !contains(out, at, e)) {
        out[at++] = e;
      }
    }
    while (at < count) {
      long r = random.nextLong();
      out[at++] = r >> (64 - k); // uniform over the k-bit signed range
    }
    return out;
  }

  /** Every k-bit signed value, for small k. */
  static long[] all(int k) {
    long[] out = new long[1 << k];
    for (int i = 0; i < out.length; i++) {
      out[i] = min(k) + i;
    }
    return out;
  }

  /** Values of k bits with many ties: random picks from a few values that include the edges. */
  static long[] tied(int k, int count, long seed) {
    long[] pool = {min(k), max(k), 0, -1, Math.min(1, max(k))};
    Random random = new Random(seed);
    long[] out = new long[count];
    for (int i = 0; i < count; i++) {
      out[i] = pool[random.nextInt(pool.length)];
    }
    return out;
  }

  private static boolean contains(long[] a, int n, long v) {
    for (int i = 0; i < n; i++) {
      if (a[i] == v) {
        return true;
      }
    }
    return false;
  }

  static long min(int k) {
    return k == 64 ? Long.MIN_VALUE : -(1L << (k - 1));
  }

  static long max(int k) {
    return k == 64 ? Long.MAX_VALUE : (1L << (k - 1)) - 1;
  }

  private static long[] constant(int n, long c) {
    long[] out = new long[n];
    Arrays.fill(out, c);
    return out;
  }

  // ---- the oracle's helpers ----

  private static BigInteger[] big(long[] v) {
    BigInteger[] out = new BigInteger[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = BigInteger.valueOf(v[i]);
    }
    return out;
  }

  private static long[] map(long[] x, LongUnaryOperator f) {
    long[] out = new long[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = f.applyAsLong(x[i]);
    }
    return out;
  }

  private static long[] map(long[] x, long[] y, LongBinaryOperator f) {
    long[] out = new long[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = f.applyAsLong(x[i], y[i]);
    }
    return out;
  }

  /** ⌊a / d⌋ exactly. */
  static BigInteger floorDiv(BigInteger a, BigInteger d) {
    BigInteger[] qr = a.divideAndRemainder(d);
    return qr[1].signum() != 0 && qr[1].signum() != d.signum()
        ? qr[0].subtract(BigInteger.ONE)
        : qr[0];
  }

  private static BigInteger[] floorDiv(long[] a, BigInteger d) {
    BigInteger[] out = new BigInteger[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = floorDiv(BigInteger.valueOf(a[i]), d);
    }
    return out;
  }

  /** x and y side by side with every fifth pair equal, for comparisons. */
  private static long[] withTies(long[] x, long[] y) {
    long[] out = y.clone();
    for (int i = 0; i < out.length; i += 5) {
      out[i] = x[i];
    }
    return out;
  }

  // ---- comparisons, equality, selection ----

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void comparisons_edgesAndRandom_matchExactOrder(int fieldBits) {
    verify(
        fieldBits,
        1,
        cases -> {
          Numeric b = cases.b;
          for (int k : comparisonBits(fieldBits)) {
            long[] x = values(k, 24, k);
            long[] y = withTies(x, values(k, 24, 100 + k));
            y[1] = x[0]; // the two ends of the range against each other
            SecretVector sx = cases.x(x, k);
            SecretVector sy = cases.y(y, k);
            String at = " at k = " + k;
            cases.check(
                "lt" + at, Comparison.lessThan(b, sx, sy, k), map(x, y, (u, v) -> u < v ? 1 : 0));
            cases.check(
                "le" + at,
                Comparison.lessOrEqual(b, sx, sy, k),
                map(x, y, (u, v) -> u <= v ? 1 : 0));
            cases.check(
                "gt" + at,
                Comparison.greaterThan(b, sx, sy, k),
                map(x, y, (u, v) -> u > v ? 1 : 0));
            cases.check(
                "ge" + at,
                Comparison.greaterOrEqual(b, sx, sy, k),
                map(x, y, (u, v) -> u >= v ? 1 : 0));
            cases.check(
                "eq" + at, Equality.equal(b, sx, sy, k), map(x, y, (u, v) -> u == v ? 1 : 0));
            cases.check("isZero" + at, Equality.isZero(b, sx, k, 40), map(x, u -> u == 0 ? 1 : 0));
            cases.check(
                "ltz" + at, Comparison.lessThanZero(b, sx, k, 40), map(x, u -> u < 0 ? 1 : 0));
            // public constants on either side
            SecretVector c = b.known(y);
            cases.check(
                "lt public" + at,
                Comparison.lessThan(b, sx, c, k),
                map(x, y, (u, v) -> u < v ? 1 : 0));
            cases.check(
                "public le" + at,
                Comparison.lessOrEqual(b, c, sx, k),
                map(x, y, (u, v) -> v <= u ? 1 : 0));
            cases.check(
                "eq public" + at, Equality.equal(b, c, sx, k), map(x, y, (u, v) -> u == v ? 1 : 0));
            // a mux on a secret choice, and on public choices
            SecretVector less = Comparison.lessThan(b, sx, sy, k);
            cases.check("mux" + at, Select.mux(b, less, sx, sy), map(x, y, Math::min));
            long[] choice = map(x, u -> u & 1);
            cases.check(
                "mux public choice" + at,
                Select.mux(b, b.known(choice), sx, sy),
                map(choice, x, y, 0));
          }
        });
  }

  /** choice ? x : y elementwise; the last argument only tells this overload apart. */
  private static long[] map(long[] choice, long[] x, long[] y, int unused) {
    long[] out = new long[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = choice[i] == 1 ? x[i] : y[i];
    }
    return out;
  }

  // ---- truncation and bits ----

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void truncationAndBitDecomposition_edgesAndRandom_matchExactArithmetic(int fieldBits) {
    verify(
        fieldBits,
        2,
        cases -> {
          Numeric b = cases.b;
          int[] bits = fieldBits == 61 ? new int[] {1, 2, 8, 19} : new int[] {1, 2, 31, 32, 63, 64};
          for (int k : bits) {
            long[] x = k <= 6 ? all(k) : values(k, 24, 7 * k);
            SecretVector sx = cases.x(x, k);
            String at = " at k = " + k;
            for (int m : new int[] {1, k / 2, k - 1}) {
              if (m < 1 || m >= k) {
                continue;
              }
              BigInteger power = BigInteger.ONE.shiftLeft(m);
              cases.check(
                  "truncate by 2^" + m + at,
                  Comparison.truncate(b, sx, k, m, 40),
                  floorDiv(x, power));
              BigInteger[] mod = new BigInteger[x.length];
              for (int i = 0; i < x.length; i++) {
                mod[i] = BigInteger.valueOf(x[i]).mod(power);
              }
              cases.check("mod 2^" + m + at, Comparison.mod2m(b, sx, k, m, 40), mod);
            }
            long[] twosComplement = new long[x.length * k];
            for (int i = 0; i < k; i++) {
              for (int j = 0; j < x.length; j++) {
                twosComplement[i * x.length + j] = (x[j] >>> i) & 1;
              }
            }
            SecretVector bitsOfX = BitDecomposition.decompose(b, sx, k, 40);
            cases.check("bits" + at, bitsOfX, twosComplement);
            // composed back, the bits spell a mod 2^k; bit k − 1 alone is the sign
            BigInteger[] unsigned = new BigInteger[x.length];
            for (int j = 0; j < x.length; j++) {
              unsigned[j] = BigInteger.valueOf(x[j]).mod(BigInteger.ONE.shiftLeft(k));
            }
            cases.check("compose" + at, Bits.compose(b, bitsOfX, x.length, 0, k), unsigned);
            cases.check(
                "sign bit" + at, Bits.bit(b, bitsOfX, x.length, k - 1), map(x, u -> u < 0 ? 1 : 0));
            cases.check(
                "not" + at,
                Comparison.not(b, Bits.bit(b, bitsOfX, x.length, 0)),
                map(x, u -> 1 - (u & 1)));
          }
          // random bits and integers: only their range is known
          int m = fieldBits == 61 ? 20 : 64;
          cases.check("random bits", Bits.random(b, 50, 3), inRange("random bits", 0, 1));
          cases.check(
              "random integers",
              Bits.randomInteger(b, 50, m),
              inRange("random integers", 0, BigInteger.ONE.shiftLeft(m).subtract(BigInteger.ONE)));
        });
  }

  /** A validator: every opened value lies in [lo, hi], and not all of them are equal. */
  private static Function<BigInteger[], List<String>> inRange(String label, long lo, long hi) {
    return inRange(label, lo, BigInteger.valueOf(hi));
  }

  private static Function<BigInteger[], List<String>> inRange(
      String label, long lo, BigInteger hi) {
    return got -> {
      List<String> out = new ArrayList<>();
      for (BigInteger v : got) {
        if (v.compareTo(BigInteger.valueOf(lo)) < 0 || v.compareTo(hi) > 0) {
          out.add(label + ": " + v + " outside [" + lo + ", " + hi + "]");
        }
      }
      if (Arrays.stream(got).distinct().count() < 2) {
        out.add(label + ": all " + got.length + " values equal");
      }
      return out;
    };
  }

  // ---- division ----

  /** Divisors from 2 to 2^63 − 1: small ones, ones near powers of two and the issue's cases. */
  static final long[] DIVISORS = {
    1,
    2,
    3,
    5,
    7,
    10,
    100,
    127,
    255,
    22517,
    65535,
    65537,
    (1L << 31) - 1,
    1L << 32,
    (1L << 40) + 1,
    (1L << 62) + 1,
    Long.MAX_VALUE
  };

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void divideByConstant_everySmallValueAndLargeEdges_matchFloorDivision(int fieldBits) {
    int[] bits =
        fieldBits == 61
            ? new int[] {1, 2, 3, 4, 5, 6, 8, 12}
            : new int[] {1, 2, 3, 4, 5, 6, 8, 31, 32, 40, 63, 64};
    Random random = new Random(fieldBits);
    long[] divisors = Arrays.copyOf(DIVISORS, DIVISORS.length + 4);
    for (int i = DIVISORS.length; i < divisors.length; i++) {
      divisors[i] = 2 + (random.nextLong() >>> (1 + random.nextInt(62)));
    }
    verify(
        fieldBits,
        3,
        cases -> {
          Numeric b = cases.b;
          for (int k : bits) {
            long[] x = k <= 6 ? all(k) : values(k, 20, 11 * k);
            SecretVector sx = cases.x(x, k);
            for (long d : divisors) {
              cases.check(
                  "⌊a / " + d + "⌋ at k = " + k,
                  Division.byConstant(b, sx, d, k),
                  floorDiv(x, BigInteger.valueOf(d)));
            }
          }
        });
  }

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void divideBySecret_edgesAndRandom_matchExactDivision(int fieldBits) {
    int aBits = fieldBits == 61 ? 6 : 12;
    int dBits = fieldBits == 61 ? 5 : 10;
    verify(
        fieldBits,
        4,
        cases -> {
          Numeric b = cases.b;
          Random random = new Random(5);
          int n = 28; // every pair of edges, then random pairs
          long[] a = new long[n];
          long[] d = new long[n];
          long[] aEdges = {0, 1, (1L << aBits) - 1, (1L << aBits) - 2};
          long[] dEdges = {1, (1L << dBits) - 1, 2, 1L << (dBits - 1)};
          for (int i = 0; i < n; i++) {
            a[i] = i < 16 ? aEdges[i % 4] : random.nextInt(1 << aBits);
            d[i] = i < 16 ? dEdges[i / 4] : 1 + random.nextInt((1 << dBits) - 1);
          }
          SecretVector sa = cases.x(a, aBits + 1);
          SecretVector sd = cases.y(d, dBits + 1);
          cases.check(
              "bySecret",
              Division.bySecret(b, sa, aBits, sd, dBits, 40),
              map(a, d, (u, v) -> u / v));
          // signed: toward zero, with both signs
          long[] sa2 = map(a, u -> (u & 1) == 0 ? u / 2 : -(u / 2) - 1);
          long[] sd2 = map(d, v -> (v & 2) == 0 ? v : -v);
          SecretVector signedA = cases.x(sa2, aBits);
          SecretVector signedD = cases.y(sd2, dBits + 1);
          cases.check(
              "signedBySecret",
              Division.signedBySecret(b, signedA, aBits, signedD, dBits + 1, 40),
              map(sa2, sd2, (u, v) -> u / v));
        });
  }

  // ---- extremes and sorting ----

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void extremesAndSorting_tiesAndEdges_firstIndexAmongEquals(int fieldBits) {
    int[] bits = fieldBits == 61 ? new int[] {2, 18} : new int[] {1, 2, 32, 64};
    verify(
        fieldBits,
        5,
        cases -> {
          Numeric b = cases.b;
          List<long[]> lists = new ArrayList<>();
          List<Integer> widths = new ArrayList<>(); // the bit length each list is declared with
          for (long[] issue : new long[][] {{0, 3, 3, 0}, {3, 0, 0, 3}, {1, 2, 1, 2, 1, 2, 1}}) {
            lists.add(issue);
            widths.add(bits[bits.length - 1]);
          }
          for (int k : bits) {
            for (int n : new int[] {1, 2, 3, 5, 6, 7, 8, 9, 13, 16, 17}) {
              lists.add(tied(k, n, 31L * n + k));
              widths.add(k);
            }
            lists.add(values(k, 11, k));
            widths.add(k);
            lists.add(constant(6, max(k)));
            widths.add(k);
          }
          for (int c = 0; c < lists.size(); c++) {
            long[] list = lists.get(c);
            int k = widths.get(c);
            SecretVector v = cases.x(list, k);
            String of = " of " + Arrays.toString(list);
            long lo = Arrays.stream(list).min().getAsLong();
            long hi = Arrays.stream(list).max().getAsLong();
            cases.check("min" + of, Extremes.min(b, v, k), BigInteger.valueOf(lo));
            cases.check("max" + of, Extremes.max(b, v, k), BigInteger.valueOf(hi));
            cases.check(
                "argmin" + of, Extremes.argmin(b, v, k), BigInteger.valueOf(first(list, lo)));
            cases.check(
                "argmax" + of, Extremes.argmax(b, v, k), BigInteger.valueOf(first(list, hi)));
            // sorting: the keys ascend, and a payload of positions moves with its key
            long[] positions = new long[list.length];
            for (int i = 0; i < positions.length; i++) {
              positions[i] = i;
            }
            List<SecretVector> sorted = Sorting.sort(b, v, List.of(b.known(positions)), k);
            long[] ascending = list.clone();
            Arrays.sort(ascending);
            cases.check("sort" + of, sorted.get(0), ascending);
            cases.check(
                "sort payload" + of, sorted.get(1), got -> movedWithKeys(of, list, ascending, got));
          }
        });
  }

  /** The opened payload is a permutation of the positions that carries each key to its place. */
  private static List<String> movedWithKeys(
      String of, long[] keys, long[] ascending, BigInteger[] payload) {
    boolean[] seen = new boolean[keys.length];
    for (int i = 0; i < payload.length; i++) {
      int origin = payload[i].intValue();
      if (payload[i].signum() < 0 || payload[i].compareTo(BigInteger.valueOf(keys.length)) >= 0) {
        return List.of("sort payload" + of + "[" + i + "]: " + payload[i] + " is no position");
      }
      if (seen[origin] || keys[origin] != ascending[i]) {
        return List.of("sort payload" + of + ": " + Arrays.toString(payload) + " is no sorting");
      }
      seen[origin] = true;
    }
    return List.of();
  }

  private static int first(long[] list, long v) {
    int i = 0;
    while (list[i] != v) {
      i++;
    }
    return i;
  }

  // ---- fixed point and statistics ----

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void fixedPointAndStatistics_edgesAndRandom_matchExactArithmetic(int fieldBits) {
    verify(
        fieldBits,
        6,
        cases -> {
          Numeric b = cases.b;
          int[][] formats =
              fieldBits == 61
                  ? new int[][] {{6, 0}, {6, 2}, {8, 4}}
                  : new int[][] {{8, 0}, {12, 4}, {16, 8}, {32, 16}};
          for (int[] format : formats) {
            int k = format[0];
            int f = format[1];
            FixedPoint fixed = FixedPoint.of(k, f);
            long[] x = values(k, 14, 3 * k + f);
            long[] y = withTies(x, values(k, 14, 5 * k + f));
            for (int i = 0; i < y.length; i++) {
              if (y[i] == 0) {
                y[i] = i % 2 == 0 ? 1 : -1;
              }
            }
            SecretVector sx = cases.x(x, k);
            SecretVector sy = cases.y(y, k);
            String at = " at k = " + k + ", f = " + f;
            BigInteger scale = BigInteger.ONE.shiftLeft(f);
            BigInteger[] product = new BigInteger[x.length];
            BigInteger[] quotient = new BigInteger[x.length];
            for (int i = 0; i < x.length; i++) {
              BigInteger bx = BigInteger.valueOf(x[i]);
              BigInteger by = BigInteger.valueOf(y[i]);
              product[i] = floorDiv(bx.multiply(by), scale);
              quotient[i] = bx.multiply(scale).divide(by); // toward zero
            }
            cases.check("add" + at, fixed.add(b, sx, sy), map(x, y, Long::sum));
            cases.check("sub" + at, fixed.sub(b, sx, sy), map(x, y, (u, v) -> u - v));
            cases.check("mul" + at, fixed.mul(b, sx, sy), product);
            if (fieldBits == 127 || k + f <= 8) {
              cases.check("div" + at, fixed.div(b, sx, sy), quotient);
            }
            cases.check("toInteger" + at, fixed.toInteger(b, sx), floorDiv(x, scale));
            long[] small = map(x, u -> u >> f); // integers of k − f bits
            cases.check(
                "fromInteger" + at,
                fixed.fromInteger(b, cases.x(small, k - f)),
                map(small, u -> u << f));
          }
          statistics(cases, fieldBits);
        });
  }

  private static void statistics(Cases cases, int fieldBits) {
    Numeric b = cases.b;
    List<long[]> lists = new ArrayList<>();
    List<int[]> formats = new ArrayList<>(); // {k, f}
    if (fieldBits == 127) {
      lists.add(new long[] {229, -1, 0, -7, 0});
      formats.add(new int[] {11, 11});
      lists.add(new long[] {3, -7, 12, 0, 5, 5, -1, 30});
      formats.add(new int[] {6, 4});
    }
    for (int k : fieldBits == 61 ? new int[] {2, 3} : new int[] {2, 8, 16}) {
      for (int n : new int[] {1, 2, 3, 7}) {
        lists.add(values(k, n, 13L * k + n));
        formats.add(new int[] {k, fieldBits == 61 ? 2 : k});
        lists.add(constant(n, min(k)));
        formats.add(new int[] {k, 3});
      }
    }
    for (int c = 0; c < lists.size(); c++) {
      long[] x = lists.get(c);
      int k = formats.get(c)[0];
      int f = formats.get(c)[1];
      int n = x.length;
      long[] selected = map(x, u -> (u & 1) == 0 || u == x[0] ? 1 : 0);
      SecretVector v = cases.x(x, k);
      SecretVector s = cases.y(selected, 2);
      BigInteger scale = BigInteger.ONE.shiftLeft(f);
      BigInteger sum = BigInteger.ZERO;
      BigInteger squares = BigInteger.ZERO;
      BigInteger chosen = BigInteger.ZERO;
      long count = 0;
      for (int i = 0; i < n; i++) {
        BigInteger xi = BigInteger.valueOf(x[i]);
        sum = sum.add(xi);
        squares = squares.add(xi.multiply(xi));
        if (selected[i] == 1) {
          chosen = chosen.add(xi);
          count++;
        }
      }
      BigInteger bn = BigInteger.valueOf(n);
      String of = " of " + Arrays.toString(x) + " at k = " + k + ", f = " + f;
      cases.check("sum" + of, Statistics.sum(b, v), sum);
      cases.check("mean" + of, Statistics.mean(b, v, k, f), floorDiv(sum.multiply(scale), bn));
      BigInteger numerator = bn.multiply(squares).subtract(sum.multiply(sum));
      cases.check(
          "variance" + of,
          Statistics.variance(b, v, k, f),
          floorDiv(numerator.multiply(scale), bn.multiply(bn)));
      if (fieldBits == 127) {
        cases.check(
            "filteredAverage" + of,
            Statistics.filteredAverage(b, v, s, k, f),
            chosen.multiply(scale).divide(BigInteger.valueOf(count))); // toward zero
      }
    }
  }

  // ---- the engine under the library: empty vectors, steps that return outer secrets ----

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void emptyVectors_fromSliceAndFromStep_everyOperationOpensEmpty(int fieldBits) {
    int k = 8;
    verify(
        fieldBits,
        7,
        cases -> {
          Numeric b = cases.b;
          SecretVector x = cases.x(new long[] {5, -3, 7}, k);
          SecretVector sliced = b.slice(x, 2, 2);
          SecretVector stepped = b.vectorOf(b.seq(s -> Deferred.of(s.slice(s.add(x, 1), 1, 1))), 0);
          SecretVector fromInput = cases.y(new long[0], k);
          long[] none = new long[0];
          int which = 0;
          for (SecretVector e : List.of(sliced, stepped, fromInput)) {
            String of = " of empty vector " + which++;
            cases.check("add" + of, b.add(e, e), none);
            cases.check("sub" + of, b.sub(e, e), none);
            cases.check("negate" + of, b.negate(e), none);
            cases.check("add constant" + of, b.add(e, 3), none);
            cases.check("scale" + of, b.mul(e, 3), none);
            cases.check("mul" + of, b.mul(e, e), none);
            cases.check("concat" + of, b.concat(e, e), none);
            cases.check("concat right" + of, b.concat(b.slice(x, 0, 1), e), new long[] {5});
            cases.check("sum" + of, b.sum(e), BigInteger.ZERO);
            cases.check("inner product" + of, b.innerProduct(e, e), BigInteger.ZERO);
            cases.check("lt" + of, Comparison.lessThan(b, e, e, k), none);
            cases.check("eq" + of, Equality.equal(b, e, e, k), none);
            cases.check("truncate" + of, Comparison.truncate(b, e, k, 2, 40), none);
            cases.check("bits" + of, BitDecomposition.decompose(b, e, k, 40), none);
            cases.check("⌊e / 3⌋" + of, Division.byConstant(b, e, 3, k), none);
            cases.check("mux" + of, Select.mux(b, e, e, e), none);
            cases.check("sort" + of, Sorting.sort(b, e, k), none);
            cases.check("fixed mul" + of, FixedPoint.of(k, 2).mul(b, e, e), none);
            cases.check("fixed div" + of, FixedPoint.of(4, 1).div(b, e, e), none);
            cases.check("toInteger" + of, FixedPoint.of(k, 2).toInteger(b, e), none);
            cases.check("mod 2^3" + of, Comparison.mod2m(b, e, k, 3, 40), none);
            cases.check("isZero" + of, Equality.isZero(b, e, k, 40), none);
            cases.check("bySecret" + of, Division.bySecret(b, e, 3, e, 3, 40), none);
            cases.check("times a secret" + of, b.mul(e, b.get(x, 0)), none);
            cases.check("add constants" + of, b.add(e, none), none);
            cases.check("scale each" + of, b.mul(e, none), none);
            cases.check(
                "linear" + of,
                b.linear(
                    0, List.of(e), new int[] {0}, java.util.Collections.singletonList(null), null),
                none);
            cases.check("sum rows" + of, b.sumRows(e, 0, new BigInteger[] {BigInteger.TWO}), none);
            Deferred<long[]> low = b.openLowBits(e, 8);
            Deferred<long[]> toP0 = b.openTo(0, e);
            boolean p0 = b.myId() == 0;
            cases.check(
                "openLowBits and openTo" + of,
                b.known(none),
                opened -> {
                  boolean empty = low.get().length == 0 && (!p0 || toP0.get().length == 0);
                  return empty
                      ? List.<String>of()
                      : List.of("openLowBits or openTo" + of + " is not empty");
                });
          }
        });
  }

  @ParameterizedTest
  @ValueSource(ints = {61, 127})
  void step_returnsSecretItDidNotCompute_valueWaitedFor(int fieldBits) {
    verify(
        fieldBits,
        8,
        cases -> {
          Numeric b = cases.b;
          SecretVector x = cases.x(new long[] {-17, 4}, 8);
          Secret first = b.get(x, 0);
          // a step that only hands on an outer input, read at once and by a later step
          Secret handed = b.secretOf(b.seq(s -> Deferred.of(first)));
          cases.check("step's outer secret", handed, BigInteger.valueOf(-17));
          cases.check(
              "step's outer vector",
              b.vectorOf(b.seq(s -> Deferred.of(x)), 2),
              new long[] {-17, 4});
          Secret later =
              b.secretOf(b.seq(s -> Deferred.of(first)).seq((s, v) -> Deferred.of(s.mul(v, 2))));
          cases.check("following step", later, BigInteger.valueOf(-34));
          // a loop whose condition fails at once returns its initial (outer) state
          Secret looped =
              b.secretOf(
                  b.loop(first, state -> false, (s, state) -> Deferred.of(s.add(state, 1)))
                      .seq((s, state) -> Deferred.of(state)));
          cases.check("loop that never ran", looped, BigInteger.valueOf(-17));
          cases.check(
              "loop read by secretOf",
              b.secretOf(b.loop(first, state -> false, (s, state) -> Deferred.of(state))),
              BigInteger.valueOf(-17));
        });
  }
}
