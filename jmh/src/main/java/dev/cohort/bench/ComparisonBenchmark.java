package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Equality;
import dev.cohort.lib.Select;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
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
 * The operation table of the PRACTICE D11.2 evaluation: LT, EQ and MUX of k-bit signed secrets, 3
 * parties in one JVM (the in-memory transport by default; {@code -p transport=tls} or {@code
 * socket-tls} for the loopback transports, {@link Transports}), field 2^127 − 1, κ = 40, random
 * bits included. {@code *Amortized}: a batch of {@value #BATCH} operations per invocation, scored
 * per operation; {@code *Single}: one operation per invocation (latency-bound).
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar ComparisonBenchmark}. Each trial prints the
 * rounds one invocation took (the rounds of one operation: a batch takes the rounds of one), SPDZ's
 * checks included; {@code java -cp jmh/target/benchmarks.jar dev.cohort.bench.ComparisonBenchmark}
 * prints only those, for every suite and bit length, without measuring time.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx4g"})
public class ComparisonBenchmark {

  static final int BATCH = 10_000;
  static final int RANDOM_BITS = 32 * BATCH;

  @State(Scope.Benchmark)
  public static class Setting {
    @Param({"bgw", "spdz"})
    public String suite;

    @Param({"32", "64"})
    public int bits;

    @Param({Transports.MEMORY})
    public String transport = Transports.MEMORY;

    LocalParties parties;
    long[] xs;
    long[] ys;
    long rounds = -1; // of the last invocation

    @Setup(Level.Trial)
    public void setUp() {
      SuiteFactory factory =
          suite.equals("bgw")
              ? BgwSuite.factory(Fields.MERSENNE_127)
              // INSECURE in-process dealer: for benchmarks only.
              : SpdzSuite.insecureFactory(Fields.MERSENNE_127, 7);
      parties = Transports.standing(transport, 3, factory, 99);
      SplittableRandom random = new SplittableRandom(5);
      xs = new long[BATCH];
      ys = new long[BATCH];
      for (int i = 0; i < BATCH; i++) {
        xs[i] = bits == 64 ? random.nextLong() : random.nextInt();
        ys[i] = i % 4 == 0 ? xs[i] : bits == 64 ? random.nextLong() : random.nextInt();
      }
    }

    Result<long[]> run(int n, BiFunction<dev.cohort.api.Numeric, SecretVector[], SecretVector> op) {
      Computation<long[]> c =
          b -> {
            SecretVector x = b.input(0, slice(xs, n), n, bits);
            SecretVector y = b.input(1, slice(ys, n), n, bits);
            return b.open(op.apply(b, new SecretVector[] {x, y}));
          };
      Result<long[]> r = parties.run(c).get(0);
      rounds = r.metrics().rounds();
      return r;
    }

    private static long[] slice(long[] a, int n) {
      return n == a.length ? a : java.util.Arrays.copyOf(a, n);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      System.out.printf(
          "%n%s, k = %d, %s: %d rounds per invocation%n", suite, bits, transport, rounds);
      parties.close();
    }
  }

  /** Prints the rounds of one LT and one EQ per suite and bit length (one run each, no timing). */
  public static void main(String[] args) {
    for (String suite : new String[] {"bgw", "spdz"}) {
      for (int bits : new int[] {32, 64}) {
        Setting s = new Setting();
        s.suite = suite;
        s.bits = bits;
        s.setUp();
        try {
          long lt = s.run(1, (b, v) -> Comparison.lessThan(b, v[0], v[1], bits)).metrics().rounds();
          long eq = s.run(1, (b, v) -> Equality.equal(b, v[0], v[1], bits)).metrics().rounds();
          System.out.printf("%s, k = %d: LT %d rounds, EQ %d rounds%n", suite, bits, lt, eq);
        } finally {
          s.parties.close();
        }
      }
    }
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long[] lessThanAmortized(Setting s) {
    return s.run(BATCH, (b, v) -> Comparison.lessThan(b, v[0], v[1], s.bits)).value();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long[] equalAmortized(Setting s) {
    return s.run(BATCH, (b, v) -> Equality.equal(b, v[0], v[1], s.bits)).value();
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long[] muxAmortized(Setting s) {
    return s.run(BATCH, (b, v) -> Select.mux(b, b.randomBits(BATCH), v[0], v[1])).value();
  }

  /** Random bits alone (only their sum is opened): the first step of LT and EQ. */
  @Benchmark
  @OperationsPerInvocation(RANDOM_BITS)
  public long[] randomBitsAmortized(Setting s) {
    return s.run(1, (b, v) -> b.vector(List.of(b.sum(b.randomBits(RANDOM_BITS))))).value();
  }

  @Benchmark
  public long[] lessThanSingle(Setting s) {
    return s.run(1, (b, v) -> Comparison.lessThan(b, v[0], v[1], s.bits)).value();
  }

  @Benchmark
  public long[] equalSingle(Setting s) {
    return s.run(1, (b, v) -> Equality.equal(b, v[0], v[1], s.bits)).value();
  }
}
