package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.Mesh;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Equality;
import dev.cohort.lib.Select;
import dev.cohort.offline.BackgroundPreprocessing;
import dev.cohort.offline.OfflinePhase;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * The operation table of the PRACTICE D11.2 evaluation: LT, EQ and MUX of k-bit signed secrets, 3
 * parties in one JVM (the in-memory transport by default; {@code -p transport=tls} or {@code
 * socket-tls} for the loopback transports, {@link Transports}), field 2^127 − 1, κ = 40, random
 * bits included. {@code *Amortized}: a batch of {@code batch} (default {@value #BATCH}) operations
 * per invocation, scored per operation; {@code *Single}: one operation per invocation
 * (latency-bound).
 *
 * <p>SPDZ's material ({@code material}): {@code dealer} is the <b>INSECURE</b> in-process dealer
 * dealing while the online phase runs (its dealing, about a third of the CPU time, is in the
 * score); {@code predealt} is the same dealer with each invocation's material dealt before the
 * invocation ({@link PredealtPreprocessing}, outside the timing), as material made ahead by {@code
 * cohort preprocess} would be: the score is the online phase alone; {@code offline} is the parties'
 * own offline phase (MASCOT with real OTs, {@link OfflinePhase#inBackground}) run by producer
 * threads over a second mesh of the same transport while the online phase runs, so the score is end
 * to end: it includes the time the online phase waited for the producers, which the secondary
 * metric {@code :onlineWaitMs} gives per iteration (mean over the parties). The offline phase makes
 * a few thousand triples per second, so give it a smaller batch, and the same number to {@code
 * -opi} so the score stays per operation: {@code -p batch=100 -opi 100} (a mismatch is refused).
 * Each trial prints, besides the rounds, the material one operation drew per kind.
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
  static final String DEALER = "dealer";
  static final String PREDEALT = "predealt";
  static final String OFFLINE = "offline";

  @State(Scope.Benchmark)
  public static class Setting {
    @Param({"bgw", "spdz"})
    public String suite;

    @Param({"32", "64"})
    public int bits;

    @Param({Transports.MEMORY})
    public String transport = Transports.MEMORY;

    /**
     * SPDZ's material: {@value #DEALER} (INSECURE, in-process, dealing inside the timing), {@value
     * #PREDEALT} (the same, dealt between invocations) or {@value #OFFLINE} (MASCOT).
     */
    @Param({DEALER})
    public String material = DEALER;

    /** Operations per invocation of the {@code *Amortized} benchmarks (with {@code -opi}). */
    @Param({"" + BATCH})
    public int batch = BATCH;

    LocalParties parties;
    long[] xs;
    long[] ys;
    long rounds = -1; // of the last invocation
    final SpdzPreprocessing[] drawn = new SpdzPreprocessing[3]; // SPDZ: counted, per party
    final PredealtPreprocessing[] predealt = new PredealtPreprocessing[3]; // material predealt
    Mesh.Factory offlineMeshes; // material offline: the producers' own mesh
    Mesh offlineMesh;
    OfflinePhase.Background background;
    long operations; // run in this trial
    long runNanos; // spent in runs in this trial
    double waitSeen; // waitedMillis() at the end of the last invocation

    /** Refuses a score that would not count operations: {@code -opi} must match {@code batch}. */
    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) {
      String name = params.getBenchmark();
      long expected =
          name.endsWith("Single") ? 1 : name.endsWith("randomBitsAmortized") ? 32L * batch : batch;
      if (params.getOpsPerInvocation() != expected) {
        throw new IllegalArgumentException(
            "batch "
                + batch
                + " needs -opi "
                + expected
                + " (operations per invocation) for "
                + name
                + ", got "
                + params.getOpsPerInvocation());
      }
      setUp();
    }

    void setUp() {
      if (batch < 1 || batch > BATCH) {
        throw new IllegalArgumentException("batch (" + batch + ") must be in [1, " + BATCH + "]");
      }
      parties = Transports.standing(transport, 3, factory(), 99);
      SplittableRandom random = new SplittableRandom(5);
      xs = new long[BATCH];
      ys = new long[BATCH];
      for (int i = 0; i < BATCH; i++) {
        xs[i] = bits == 64 ? random.nextLong() : random.nextInt();
        ys[i] = i % 4 == 0 ? xs[i] : bits == 64 ? random.nextLong() : random.nextInt();
      }
    }

    private SuiteFactory factory() {
      if (suite.equals("bgw")) {
        if (!material.equals(DEALER)) {
          throw new IllegalArgumentException(
              "material " + material + " is SPDZ's: run it with -p suite=spdz");
        }
        return BgwSuite.factory(Fields.MERSENNE_127);
      }
      PreprocessingSource source;
      String description;
      if (material.equals(DEALER)) {
        // INSECURE in-process dealer: for benchmarks only.
        source = SpdzConfig.insecureDealer(Fields.MERSENNE_127, 7).preprocessing();
        description = "insecure dealer";
      } else if (material.equals(PREDEALT)) {
        // INSECURE in-process dealer, dealing between invocations: for benchmarks only.
        source =
            PredealtPreprocessing.predealing(
                SpdzConfig.insecureDealer(Fields.MERSENNE_127, 7).preprocessing(), predealt);
        description = "insecure dealer, dealt ahead";
      } else if (material.equals(OFFLINE)) {
        offlineMeshes = Transports.mesh(transport);
        offlineMesh = offlineMeshes.bind(3);
        background = OfflinePhase.inBackground(offlineMesh::connect);
        source = background;
        description = "offline phase (MASCOT) in the background";
      } else {
        throw new IllegalArgumentException(
            "material " + material + ": want " + DEALER + ", " + PREDEALT + " or " + OFFLINE);
      }
      return SpdzSuite.factory(
          SpdzConfig.of(
              Fields.MERSENNE_127, CountedPreprocessing.counting(source, drawn), description));
    }

    Result<long[]> run(int n, BiFunction<dev.cohort.api.Numeric, SecretVector[], SecretVector> op) {
      Computation<long[]> c =
          b -> {
            SecretVector x = b.input(0, slice(xs, n), n, bits);
            SecretVector y = b.input(1, slice(ys, n), n, bits);
            return b.open(op.apply(b, new SecretVector[] {x, y}));
          };
      long start = System.nanoTime();
      Result<long[]> r = parties.run(c).get(0);
      runNanos += System.nanoTime() - start;
      rounds = r.metrics().rounds();
      return r;
    }

    /**
     * Material {@value #PREDEALT}: deals, outside the timing, what the last invocation drew (the
     * first invocation draws while it runs; warm-up covers it).
     */
    @Setup(Level.Invocation)
    public void predeal() {
      for (PredealtPreprocessing p : predealt) {
        if (p != null) {
          p.refill();
        }
      }
    }

    /**
     * Refuses a result that differs from the comparison computed here in the clear: a fast wrong
     * answer measures nothing.
     */
    long[] checked(long[] result, int n, java.util.function.LongBinaryOperator want) {
      for (int i = 0; i < n; i++) {
        long w = want.applyAsLong(xs[i], ys[i]);
        if (result[i] != w) {
          throw new IllegalStateException(
              "operation "
                  + i
                  + " on "
                  + xs[i]
                  + ", "
                  + ys[i]
                  + " gave "
                  + result[i]
                  + ", want "
                  + w);
        }
      }
      return result;
    }

    /** Counts {@code n} operations and adds the online phase's new waits to {@code waiting}. */
    <T> T counted(T value, long n, Waiting waiting) {
      operations += n;
      double waited = waitedMillis();
      waiting.onlineWaitMs += waited - waitSeen;
      waitSeen = waited;
      return value;
    }

    /** How long the online phases waited for material so far, mean over the parties, in ms. */
    double waitedMillis() {
      return background == null ? 0 : background.waitNanos() / 1e6 / drawn.length;
    }

    private static long[] slice(long[] a, int n) {
      return n == a.length ? a : java.util.Arrays.copyOf(a, n);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      System.out.printf(
          "%n%s, k = %d, %s: %d rounds per invocation%n", suite, bits, transport, rounds);
      if (drawn[0] != null && operations > 0) {
        printMaterial();
      }
      parties.close();
      if (background != null) {
        background.close();
        offlineMesh.close();
        offlineMeshes.close();
      }
    }

    /** Material drawn per operation (party 0) and, for the offline phase, the waits. */
    private void printMaterial() {
      long[] d = ((CountedPreprocessing) drawn[0]).drawn();
      StringBuilder line = new StringBuilder();
      for (int k = 0; k < d.length; k++) {
        line.append(
            String.format(" %.1f %s,", (double) d[k] / operations, CountedPreprocessing.KINDS[k]));
      }
      System.out.printf(
          "%s (%s): per operation (inputs' range proofs included, P0):%s over %d operations%n",
          suite, material, line.substring(0, line.length() - 1), operations);
      if (background == null) {
        return;
      }
      long waits = 0;
      for (SpdzPreprocessing p : drawn) {
        waits += ((BackgroundPreprocessing) ((CountedPreprocessing) p).inner()).waits();
      }
      System.out.printf(
          "offline phase: the online phase waited %.0f ms of %.0f ms in runs (mean over parties,"
              + " %d waits in all); producers made %d triples (all parties)%n",
          waitedMillis(), runNanos / 1e6, waits, background.triplesMade());
    }
  }

  /**
   * How long the online phase waited for the offline phase in an iteration, mean over the parties,
   * in ms (0 for the dealer and BGW): the secondary metric {@code :onlineWaitMs}.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Waiting {
    public double onlineWaitMs;

    @Setup(Level.Iteration)
    public void reset() {
      onlineWaitMs = 0;
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
  public long[] lessThanAmortized(Setting s, Waiting w) {
    long[] r = s.run(s.batch, (b, v) -> Comparison.lessThan(b, v[0], v[1], s.bits)).value();
    return s.counted(s.checked(r, s.batch, (x, y) -> x < y ? 1 : 0), s.batch, w);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long[] equalAmortized(Setting s, Waiting w) {
    long[] r = s.run(s.batch, (b, v) -> Equality.equal(b, v[0], v[1], s.bits)).value();
    return s.counted(s.checked(r, s.batch, (x, y) -> x == y ? 1 : 0), s.batch, w);
  }

  @Benchmark
  @OperationsPerInvocation(BATCH)
  public long[] muxAmortized(Setting s, Waiting w) {
    long[] r = s.run(s.batch, (b, v) -> Select.mux(b, b.randomBits(s.batch), v[0], v[1])).value();
    return s.counted(r, s.batch, w);
  }

  /** Random bits alone (only their sum is opened): the first step of LT and EQ. */
  @Benchmark
  @OperationsPerInvocation(RANDOM_BITS)
  public long[] randomBitsAmortized(Setting s, Waiting w) {
    int n = 32 * s.batch;
    long[] r = s.run(1, (b, v) -> b.vector(List.of(b.sum(b.randomBits(n))))).value();
    return s.counted(r, n, w);
  }

  @Benchmark
  public long[] lessThanSingle(Setting s, Waiting w) {
    long[] r = s.run(1, (b, v) -> Comparison.lessThan(b, v[0], v[1], s.bits)).value();
    return s.counted(s.checked(r, 1, (x, y) -> x < y ? 1 : 0), 1, w);
  }

  @Benchmark
  public long[] equalSingle(Setting s, Waiting w) {
    long[] r = s.run(1, (b, v) -> Equality.equal(b, v[0], v[1], s.bits)).value();
    return s.counted(s.checked(r, 1, (x, y) -> x == y ? 1 : 0), 1, w);
  }
}
