package dev.cohort.bench;

import dk.alexandra.fresco.framework.DRes;
import dk.alexandra.fresco.framework.builder.numeric.Numeric;
import dk.alexandra.fresco.framework.builder.numeric.ProtocolBuilderNumeric;
import dk.alexandra.fresco.framework.value.SInt;
import dk.alexandra.fresco.lib.common.compare.Comparison;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
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
 * FRESCO 1.3.4's comparison and equality, the baseline of {@link ComparisonBenchmark}: 3 parties in
 * one JVM over FRESCO's sockets with its batched evaluation ({@link FrescoBaselineParties}), its
 * 128-bit pseudo-Mersenne field (Cohort's runs over 2^127 − 1), {@code maxBitLength} = the
 * operands' bits, and its default algorithms ({@code compareLT}, {@code equals(x, y, bits)}). Party
 * 1 inputs the x's, party 2 the y's, all results are opened, as in Cohort's benchmark. A batch of
 * {@value #BATCH} operations per invocation (FRESCO manages a few hundred per second), scored per
 * operation. The set-up checks FRESCO's answers against plaintext.
 *
 * <p>Run with Cohort's in the same JMH run: {@code java -jar jmh/target/benchmarks.jar
 * '(Fresco)?ComparisonBenchmark.(lessThan|equal)Amortized' -p bits=32}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx4g"})
public class FrescoComparisonBenchmark {

  static final int PARTIES = 3;
  static final int BATCH = 100;

  @State(Scope.Benchmark)
  public static class Setting {
    @Param({"spdz", "dummy"})
    public String suite;

    @Param({"32", "64"})
    public int bits;

    FrescoBaselineParties parties;
    BigInteger[] xs;
    BigInteger[] ys;

    @Setup(Level.Trial)
    public void setUp() {
      parties = new FrescoBaselineParties(suite, PARTIES, 128, bits);
      SplittableRandom random = new SplittableRandom(5);
      xs = new BigInteger[BATCH];
      ys = new BigInteger[BATCH];
      for (int i = 0; i < BATCH; i++) {
        // Non-negative (bits - 1)-bit operands: inside every FRESCO algorithm's documented range.
        xs[i] = BigInteger.valueOf(random.nextLong() >>> (65 - bits));
        ys[i] = i % 4 == 0 ? xs[i] : BigInteger.valueOf(random.nextLong() >>> (65 - bits));
      }
      check(lessThan(), (x, y) -> x.compareTo(y) < 0, "compareLT");
      check(equal(), BigInteger::equals, "equals");
    }

    private void check(
        List<BigInteger> got, BiFunction<BigInteger, BigInteger, Boolean> want, String what) {
      for (int i = 0; i < BATCH; i++) {
        BigInteger expected = want.apply(xs[i], ys[i]) ? BigInteger.ONE : BigInteger.ZERO;
        if (!got.get(i).equals(expected)) {
          throw new IllegalStateException(
              "FRESCO " + what + "(" + xs[i] + ", " + ys[i] + ") opened " + got.get(i));
        }
      }
    }

    List<BigInteger> lessThan() {
      return run((builder, x, y) -> Comparison.using(builder).compareLT(x, y));
    }

    List<BigInteger> equal() {
      return run((builder, x, y) -> Comparison.using(builder).equals(x, y, bits));
    }

    private interface Op {
      DRes<SInt> apply(ProtocolBuilderNumeric builder, DRes<SInt> x, DRes<SInt> y);
    }

    /** Party 1's view of the opened results of {@code op} on every pair. */
    private List<BigInteger> run(Op op) {
      return parties
          .run(
              id ->
                  root ->
                      root.par(
                              par -> {
                                Numeric num = par.numeric();
                                List<DRes<SInt>> x = new ArrayList<>(BATCH);
                                List<DRes<SInt>> y = new ArrayList<>(BATCH);
                                for (int i = 0; i < BATCH; i++) {
                                  x.add(num.input(id == 1 ? xs[i] : null, 1));
                                  y.add(num.input(id == 2 ? ys[i] : null, 2));
                                }
                                return () -> List.of(x, y);
                              })
                          .par(
                              (par, in) -> {
                                List<DRes<BigInteger>> opened = new ArrayList<>(BATCH);
                                for (int i = 0; i < BATCH; i++) {
                                  DRes<SInt> x = in.get(0).get(i);
                                  DRes<SInt> y = in.get(1).get(i);
                                  // In FRESCO's par everything runs side by side: a seq orders
                                  // the opening after the operation.
                                  opened.add(
                                      par.seq(seq -> seq.numeric().open(op.apply(seq, x, y))));
                                }
                                return () -> {
                                  List<BigInteger> out = new ArrayList<>(BATCH);
                                  for (DRes<BigInteger> o : opened) {
                                    out.add(o.out());
                                  }
                                  return out;
                                };
                              }))
          .get(0);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      parties.close();
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public List<BigInteger> lessThanAmortized(Setting s) {
    return s.lessThan();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public List<BigInteger> equalAmortized(Setting s) {
    return s.equal();
  }
}
