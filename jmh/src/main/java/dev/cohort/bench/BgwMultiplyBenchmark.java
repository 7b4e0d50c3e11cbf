package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.suite.SuiteFactory;
import java.util.Arrays;
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
 * Amortized BGW multiplication: 3 parties as threads in one JVM, over the in-memory transport or
 * the Netty transport on loopback with TLS ({@code transport} = memory or tls; {@link Transports}).
 *
 * <p>The parties' engines and threads live for the whole trial, so an invocation measures the
 * protocol, not thread start-up or the suite's one-off key set-up: the benchmark thread runs party
 * 0's engine and two long-lived helper threads (parties 1 and 2) run the same computation on their
 * engines, handed to them through single-thread executors.
 *
 * <ul>
 *   <li>{@link #multiplyOnly}: party 0 and party 1 each input {@code n} values, then one vector
 *       multiplication of {@code n} elements; nothing is opened (the engine evaluates every gate
 *       recorded, observed or not). Two rounds: inputs, multiplication. Secondary score {@code
 *       :elements}: multiplications/s (the primary score counts invocations/s).
 *   <li>{@link #addOnly}: the same inputs, then {@value Workloads#ADDS} dependent vector additions
 *       of {@code n} elements (local, no round). Secondary score {@code :elements}: additions/s.
 *   <li>{@link #inputsOnly}: the same inputs without the multiplication, the baseline to subtract
 *       from {@link #multiplyOnly} (one round). Secondary score {@code :elements}: input pairs/s.
 *   <li>{@link #dependentMultiply}: a chain of {@value #CHAIN} dependent scalar multiplications,
 *       one round each (plus one input round): latency per multiplication.
 * </ul>
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar BgwMultiplyBenchmark -p field=m61}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx4g"})
public class BgwMultiplyBenchmark {

  static final int PARTIES = 3;
  static final int BITS = 32;
  static final int CHAIN = 100;

  /** The three parties' engines, alive for the whole trial. */
  @State(Scope.Benchmark)
  public static class Parties {

    @Param({"m61", "m127"})
    public String field;

    @Param({"memory", "tls"})
    public String transport;

    private LocalParties parties;

    @Setup(Level.Trial)
    public void setUp() {
      SuiteFactory suite = BgwSuite.factory(Fields.byName(field));
      // INSECURE: a fixed PRG seed makes runs repeatable; for benchmarks only, never deployments.
      parties = Transports.standing(transport, PARTIES, suite, 20240601L);
      check();
    }

    /**
     * Runs {@code computation} on all parties: the helpers run parties 1 and 2 while the calling
     * thread runs party 0; returns party 0's result once every party has finished.
     */
    public <T> Result<T> run(Computation<T> computation) {
      return parties.run(computation).get(0);
    }

    /** Runs the one-off set-up round and checks that a product opens correctly. */
    private void check() {
      long[] xs = {3, -5, 7, 1 << 20};
      long[] ys = {4, 6, -2, -(1 << 20)};
      long[] want = {12, -30, -14, -(1L << 40)};
      Result<long[]> r =
          run(
              b -> {
                SecretVector x = b.input(0, xs, xs.length, BITS);
                SecretVector y = b.input(1, ys, ys.length, BITS);
                return b.open(b.mul(x, y));
              });
      if (!Arrays.equals(r.value(), want)) {
        throw new IllegalStateException(
            "BGW product is wrong: "
                + Arrays.toString(r.value())
                + ", want "
                + Arrays.toString(want));
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      parties.close();
    }
  }

  /** The inputs: party 0's {@code xs} and party 1's {@code ys}, prepared once per trial. */
  @State(Scope.Benchmark)
  public static class Vectors {

    @Param({"10", "1000", "100000", "1000000"})
    public int n;

    long[] xs;
    long[] ys;
    Computation<SecretVector> multiply;
    Computation<SecretVector> inputs;
    Computation<SecretVector> add;

    @Setup(Level.Trial)
    public void setUp() {
      Workloads workloads = new Workloads(n, BITS);
      xs = workloads.xs;
      ys = workloads.ys;
      multiply = workloads.multiply();
      inputs = workloads.inputs();
      add = workloads.add();
    }
  }

  /**
   * Elements processed, as a rate: {@code @OperationsPerInvocation} takes only a constant, so the
   * per-element rate for the {@code n} parameter is this secondary metric ({@code :elements},
   * ops/s), while the primary score counts invocations.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Elements {
    public long elements;

    @Setup(Level.Iteration)
    public void reset() {
      elements = 0;
    }
  }

  /** Inputs of {@code n} values by two parties, then one vector multiplication; nothing opened. */
  @Benchmark
  public Result<SecretVector> multiplyOnly(Parties parties, Vectors v, Elements counter) {
    Result<SecretVector> r = parties.run(v.multiply);
    counter.elements += v.n;
    return r;
  }

  /**
   * Inputs of {@code n} values by two parties, then {@value Workloads#ADDS} dependent vector
   * additions (local); {@code :elements} counts the additions. Subtract {@link #inputsOnly}'s time
   * per invocation for the additions alone.
   */
  @Benchmark
  public Result<SecretVector> addOnly(Parties parties, Vectors v, Elements counter) {
    Result<SecretVector> r = parties.run(v.add);
    counter.elements += (long) Workloads.ADDS * v.n;
    return r;
  }

  /** The inputs of {@link #multiplyOnly} alone: the baseline to subtract. */
  @Benchmark
  public Result<SecretVector> inputsOnly(Parties parties, Vectors v, Elements counter) {
    Result<SecretVector> r = parties.run(v.inputs);
    counter.elements += v.n;
    return r;
  }

  /** {@value #CHAIN} dependent scalar multiplications (one round each, plus one input round). */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @OperationsPerInvocation(CHAIN)
  public Result<Secret> dependentMultiply(Parties parties) {
    return parties.run(CHAIN_COMPUTATION);
  }

  private static final Computation<Secret> CHAIN_COMPUTATION =
      b -> {
        Secret x = b.input(0, 3, BITS);
        Secret y = b.input(1, 1, BITS);
        Secret z = x;
        for (int i = 0; i < CHAIN; i++) {
          z = b.mul(z, y);
        }
        return Deferred.of(z);
      };
}
