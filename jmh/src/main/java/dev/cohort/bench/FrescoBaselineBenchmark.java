package dev.cohort.bench;

import dk.alexandra.fresco.framework.Application;
import dk.alexandra.fresco.framework.DRes;
import dk.alexandra.fresco.framework.builder.numeric.Numeric;
import dk.alexandra.fresco.framework.builder.numeric.ProtocolBuilderNumeric;
import dk.alexandra.fresco.framework.value.SInt;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The FRESCO 1.3.4 baseline: the workloads of {@link BgwMultiplyBenchmark} and {@link
 * SessionsBenchmark} on FRESCO's SPDZ suite (dummy preprocessing) and its dummy arithmetic suite, 3
 * parties in one JVM over FRESCO's socket network on loopback with its batched evaluation strategy
 * ({@link FrescoBaselineParties}). Run them in the same JMH run as Cohort's, so every result is
 * also a ratio:
 *
 * <pre>
 * java -jar jmh/target/benchmarks.jar 'BgwMultiplyBenchmark|SessionsBenchmark|FrescoBaseline' \
 *     -p field=m61 -p n=1000,10000
 * </pre>
 *
 * <ul>
 *   <li>{@link #multiplyOnly}: P1 and P2 input {@code n} values each, then {@code n} independent
 *       multiplications in one parallel scope; nothing opened. Secondary score {@code :elements}:
 *       multiplications/s. {@link #inputsOnly} is the inputs alone, the baseline to subtract.
 *   <li>{@link #addOnly}: the same inputs, then {@value Workloads#ADDS} dependent additions per
 *       element. Secondary score {@code :elements}: additions/s.
 *   <li>{@link #dependentMultiply}: a chain of {@value BgwMultiplyBenchmark#CHAIN} dependent
 *       multiplications: latency per multiplication.
 *   <li>{@link #sessions}: {@value SessionsBenchmark#SESSIONS} distance-average sessions, {@code
 *       parallelism} at a time: each wave of sessions is one FRESCO application whose sessions run
 *       side by side in a parallel scope (FRESCO has no sessions API). Time per 1000 sessions.
 * </ul>
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx4g"})
public class FrescoBaselineBenchmark {

  static final int PARTIES = 3;

  @Param({"spdz", "dummy"})
  public String suite;

  @Param({"m61"})
  public String field;

  FrescoBaselineParties parties;

  @Setup(Level.Trial)
  public void setUp() {
    int bits =
        switch (field) {
          case "m61" -> 64; // FRESCO's fast fields are 2^k - c for k in {8, 16, ..., 512}:
          case "m127" -> 128; // the nearest size to Cohort's field, e.g. 2^64 - 59 for m61
          default -> throw new IllegalArgumentException("unknown field " + field);
        };
    parties = new FrescoBaselineParties(suite, PARTIES, bits);
    List<BigInteger> sums = runSessions(SessionsBenchmark.SESSIONS);
    for (int i = 0; i < SessionsBenchmark.SESSIONS; i++) {
      long want = SessionsBenchmark.runningSum(i) + SessionsBenchmark.distanceSum(i);
      if (sums.get(i).longValueExact() != want) {
        throw new IllegalStateException("FRESCO session " + i + " opened " + sums.get(i));
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    parties.close();
  }

  /** The inputs of the multiplication benchmarks. */
  @State(Scope.Benchmark)
  public static class Vectors {

    @Param({"1000", "10000"})
    public int n;

    BigInteger[] xs;
    BigInteger[] ys;

    @Setup(Level.Trial)
    public void setUp() {
      SplittableRandom random = new SplittableRandom(42);
      xs = new BigInteger[n];
      ys = new BigInteger[n];
      for (int i = 0; i < n; i++) {
        xs[i] = BigInteger.valueOf(random.nextInt() & 0x7fffffff);
        ys[i] = BigInteger.valueOf(random.nextInt() & 0x7fffffff);
      }
    }
  }

  /** Sessions at a parallelism. */
  @State(Scope.Benchmark)
  public static class Sessions {
    @Param({"1", "20", "1000"})
    public int parallelism;
  }

  /** Elements processed, as a rate (see {@link BgwMultiplyBenchmark.Elements}). */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Elements {
    public long elements;

    @Setup(Level.Iteration)
    public void reset() {
      elements = 0;
    }
  }

  /** P1 inputs {@code xs}, P2 inputs {@code ys}, side by side. */
  private static DRes<List<List<DRes<SInt>>>> inputs(
      ProtocolBuilderNumeric builder, int id, Vectors v) {
    return builder.par(
        par -> {
          Numeric num = par.numeric();
          List<DRes<SInt>> x = new ArrayList<>(v.n);
          List<DRes<SInt>> y = new ArrayList<>(v.n);
          for (int i = 0; i < v.n; i++) {
            x.add(num.input(id == 1 ? v.xs[i] : null, 1));
            y.add(num.input(id == 2 ? v.ys[i] : null, 2));
          }
          return () -> List.of(x, y);
        });
  }

  /** One result per element pair of the inputs, from {@code op}. */
  private interface ElementOp {
    DRes<SInt> apply(Numeric num, DRes<SInt> x, DRes<SInt> y);
  }

  /** The inputs, then {@code op} on every pair (x_i, y_i) in one parallel scope; nothing opened. */
  private List<Integer> elementwise(Vectors v, ElementOp op) {
    return parties.run(
        id ->
            root ->
                root.par(par -> inputs(par, id, v))
                    .par(
                        (par, in) -> {
                          Numeric num = par.numeric();
                          List<DRes<SInt>> results = new ArrayList<>(v.n);
                          for (int i = 0; i < v.n; i++) {
                            results.add(op.apply(num, in.get(0).get(i), in.get(1).get(i)));
                          }
                          return () -> results.size();
                        }));
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public List<Integer> multiplyOnly(Vectors v, Elements counter) {
    List<Integer> r = elementwise(v, Numeric::mult);
    counter.elements += v.n;
    return r;
  }

  /**
   * The inputs, then {@value Workloads#ADDS} dependent additions per element (local in FRESCO's
   * suites too); {@code :elements} counts the additions.
   */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public List<Integer> addOnly(Vectors v, Elements counter) {
    List<Integer> r =
        elementwise(
            v,
            (num, x, y) -> {
              DRes<SInt> z = x;
              for (int a = 0; a < Workloads.ADDS; a++) {
                z = num.add(z, y);
              }
              return z;
            });
    counter.elements += (long) Workloads.ADDS * v.n;
    return r;
  }

  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  public List<Integer> inputsOnly(Vectors v, Elements counter) {
    List<Integer> r =
        parties.run(id -> root -> root.par(par -> inputs(par, id, v)).seq((seq, in) -> () -> v.n));
    counter.elements += v.n;
    return r;
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @OperationsPerInvocation(BgwMultiplyBenchmark.CHAIN)
  public List<SInt> dependentMultiply() {
    return parties.run(
        id ->
            root ->
                root.par(
                        par -> {
                          Numeric num = par.numeric();
                          DRes<SInt> x = num.input(id == 1 ? BigInteger.valueOf(3) : null, 1);
                          DRes<SInt> y = num.input(id == 2 ? BigInteger.ONE : null, 2);
                          return () -> List.of(x, y);
                        })
                    .seq(
                        (seq, in) -> {
                          DRes<SInt> z = in.get(0);
                          for (int i = 0; i < BgwMultiplyBenchmark.CHAIN; i++) {
                            z = seq.numeric().mult(z, in.get(1));
                          }
                          return z;
                        }));
  }

  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public List<BigInteger> sessions(Sessions s) {
    return runSessions(s.parallelism);
  }

  /** All sessions, {@code parallelism} per application; P1's opened sums in session order. */
  List<BigInteger> runSessions(int parallelism) {
    List<BigInteger> sums = new ArrayList<>(SessionsBenchmark.SESSIONS);
    for (int from = 0; from < SessionsBenchmark.SESSIONS; from += parallelism) {
      int first = from;
      int to = Math.min(SessionsBenchmark.SESSIONS, from + parallelism);
      sums.addAll(parties.run(id -> wave(id, first, to)).get(0));
    }
    return sums;
  }

  /** Sessions {@code [from, to)} side by side; party {@code id}'s view (FRESCO ids from 1). */
  private static Application<List<BigInteger>, ProtocolBuilderNumeric> wave(
      int id, int from, int to) {
    return root ->
        root.par(
            par -> {
              List<DRes<BigInteger>> opened = new ArrayList<>(to - from);
              for (int i = from; i < to; i++) {
                opened.add(par.seq(session(id, i)));
              }
              return () -> {
                List<BigInteger> out = new ArrayList<>(opened.size());
                for (DRes<BigInteger> o : opened) {
                  out.add(o.out());
                }
                return out;
              };
            });
  }

  /** One distance-average session: inputs side by side, then the sum opened to the server. */
  private static dk.alexandra.fresco.framework.builder.Computation<
          BigInteger, ProtocolBuilderNumeric>
      session(int id, int i) {
    return seq ->
        seq.par(
                par -> {
                  Numeric num = par.numeric();
                  List<DRes<SInt>> in = new ArrayList<>(PARTIES);
                  BigInteger sum = BigInteger.valueOf(SessionsBenchmark.runningSum(i));
                  in.add(num.input(id == 1 ? sum : null, 1));
                  for (int d = 1; d < PARTIES; d++) {
                    BigInteger mine = BigInteger.valueOf(SessionsBenchmark.distance(i, d));
                    in.add(num.input(id == d + 1 ? mine : null, d + 1));
                  }
                  return () -> in;
                })
            .seq(
                (s, in) -> {
                  Numeric num = s.numeric();
                  DRes<SInt> total = in.get(0);
                  for (int d = 1; d < in.size(); d++) {
                    total = num.add(total, in.get(d));
                  }
                  return num.open(total, 1);
                });
  }
}
