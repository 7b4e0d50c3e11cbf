package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.spdz.InsecureDealer;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.Shares;
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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The SPDZ online phase: 3 parties as threads in one JVM over the in-memory transport or the Netty
 * transport on loopback with TLS ({@code transport} = memory or tls), engines and threads alive for
 * the whole trial (as in {@link BgwMultiplyBenchmark}).
 *
 * <p>Preprocessing is <b>INSECURE</b>: the seeded in-process dealer ({@link InsecureDealer}) deals
 * {@code n} triples and input masks once per trial, and every invocation replays the same material,
 * so the scores measure the online phase alone, never dealing (reusing triples leaks the inputs;
 * for benchmarks only). Every run ends with the suite's MAC check over everything it opened.
 *
 * <ul>
 *   <li>{@link #multiply}: party 0 and party 1 each input {@code n} values, one vector
 *       multiplication of {@code n} elements (opens 2n values), then the final MAC check; nothing
 *       is output. Secondary score {@code :elements}: multiplications/s.
 *   <li>{@link #multiplyOnly}: one vector multiplication of {@code n} elements on random shared
 *       values of the replayed pool, then the final MAC check: the multiplication alone, without
 *       the inputs (which cost k input bits per value and dominate {@link #multiply}).
 *   <li>{@link #addOnly}: the same inputs, then {@value Workloads#ADDS} dependent vector additions
 *       of {@code n} elements (local). Secondary score {@code :elements}: additions/s.
 *   <li>{@link #inputsOnly}: the same inputs alone (nothing opened, so no check): the baseline to
 *       subtract from {@link #multiply}.
 *   <li>{@link #openAll}: party 0 inputs {@code n} values, all {@code n} are opened and then MAC
 *       checked; {@link #openSum} opens only their sum (one value) in the same rounds. Their
 *       difference over {@code n − 1} is the cost of opening and MAC-checking one value.
 * </ul>
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar SpdzBenchmark -p field=m61}.
 *
 * <p>{@link #multiplyOnly}, 2^127 − 1, n = 10^5, TLS on loopback, {@code java -jar
 * jmh/target/benchmarks.jar 'SpdzBenchmark.multiplyOnly$' -p field=m127 -p n=100000 -p
 * transport=tls -f 1 -wi 3 -i 5 -w 1 -r 1}, on the shared 2-core machine, 27 November 2026, 03:57–
 * 04:00 UTC, load average 4.5–10 (other builds running), the build before the kernel changes of
 * that day alternated with the build after them, four pairs: medians 21.3 and 25.4 batches/s (+19
 * %); alone on the machine the build before gave 25.8 (2.6 M multiplications/s). CPU time of the
 * process per batch ({@code -prof 'perfnorm:events=task-clock'}, all three parties, seven
 * alternated pairs): medians 77.7 ms before, 67.4 ms after (−13 %); on the in-memory transport 46
 * and 36 ms (−22 %), 36 and 47 batches/s. What changed: the MAC check sums both columns in one loop
 * (two streams read side by side, out of cache: 36 → 15.5 ns per multiplication on one thread), the
 * Beaver combination folds at 2^128 ≡ 2 and sums 32-bit halves (17–18 → 14 ns per element and
 * column), and this party's d and e are computed straight into a peer's frame (no column of their
 * own, one copy fewer). 2^61 − 1 did not regress (three alternated pairs, medians 49.6 before and
 * 53.8 after, CPU per batch 34 and 31 ms). Profile after (perf, 10^5): the Beaver combination 15 %,
 * the MAC check's sums 7 %, the masked differences with their copy 7 %, summing and range checking
 * the opened shares 7 %; the Netty threads 40 % (BoringSSL 9 %, its plaintext copy 5 %, kernel
 * socket copies 7 %, the frame decoder's zeroing of grown word arrays 4 % and its copy 3 %),
 * Netty's zeroing of new pool chunks 3 %, the frame encoder's copy 3 %, zeroing the result columns
 * 2 %, the JIT 4–9 %.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx6g"})
public class SpdzBenchmark {

  static final int PARTIES = 3;
  static final int BITS = 32;
  static final long SEED = 20240601L;

  /** The three parties' engines and the replayed preprocessing, alive for the whole trial. */
  @State(Scope.Benchmark)
  public static class Parties {

    @Param({"m61", "m127"})
    public String field;

    @Param({"1000", "100000", "1000000"})
    public int n;

    @Param({"memory", "tls"})
    public String transport;

    private LocalParties parties;

    long[] xs;
    long[] ys;
    Computation<SecretVector> multiply;
    Computation<SecretVector> multiplyOnly;
    Computation<SecretVector> inputs;
    Computation<SecretVector> add;
    Computation<long[]> openAll;
    Computation<Long> openSum;

    @Setup(Level.Trial)
    public void setUp() {
      Field f = Fields.byName(field);
      SpdzConfig config = SpdzConfig.of(f, Replayed.source(f, n), "insecure dealer, replayed");
      SuiteFactory suite = SpdzSuite.factory(config);
      // INSECURE: a fixed PRG seed makes runs repeatable; for benchmarks only, never deployments.
      parties = Transports.standing(transport, PARTIES, suite, SEED);
      computations();
      check();
    }

    private void computations() {
      Workloads workloads = new Workloads(n, BITS);
      xs = workloads.xs;
      ys = workloads.ys;
      multiply = workloads.multiply();
      // Two steps, so that x and y are separate draws, each a whole pool: no view of a larger
      // draw to copy out. Random elements take no round.
      multiplyOnly =
          b ->
              b.seq(b1 -> Deferred.of(b1.random(n)))
                  .seq((b2, x) -> Deferred.of(b2.mul(x, b2.random(n))));
      inputs = workloads.inputs();
      add = workloads.add();
      openAll = b -> b.open(b.input(0, xs, n, BITS));
      openSum = b -> b.open(b.sum(b.input(0, xs, n, BITS)));
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
      long[] x = {3, -5, 7, 1 << 20};
      long[] y = {4, 6, -2, -(1 << 20)};
      long[] want = {12, -30, -14, -(1L << 40)};
      Result<long[]> r =
          run(b -> b.open(b.mul(b.input(0, x, x.length, BITS), b.input(1, y, y.length, BITS))));
      if (!Arrays.equals(r.value(), want)) {
        throw new IllegalStateException(
            "SPDZ product is wrong: "
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

  /**
   * INSECURE preprocessing for benchmarks: {@code pool} triples and input masks of each owner, and
   * {@link #BITS}·{@code pool} input bits of each owner (a {@link #BITS}-bit input of {@code pool}
   * values takes that many), dealt once by the seeded dealer and handed out again (a prefix of
   * them) on every draw; random elements likewise, from two pools of {@code pool} handed out in
   * turn, so that the two factors of {@link #multiplyOnly} are different sharings. Every party
   * replays the same material in the same order, so sharings stay consistent and MAC checks pass;
   * secrecy does not hold.
   */
  static final class Replayed implements SpdzPreprocessing {
    private final InsecureDealer dealer;
    private final int words;
    private final int pool;
    private final Triples triples;
    private final InputMasks[] masks;
    private final InputMasks[] inputBits;
    private Shares[] randoms; // two pools, dealt at the first draw
    private int randomDraws;

    Replayed(Field field, int party, int parties, int pool) {
      this.dealer = new InsecureDealer(field, party, parties, SEED, Long.MAX_VALUE);
      this.words = field.words();
      this.pool = pool;
      this.triples = dealer.triples(pool);
      this.masks = new InputMasks[parties];
      for (int owner = 0; owner < parties; owner++) {
        masks[owner] = dealer.inputMasks(owner, pool);
      }
      this.inputBits = new InputMasks[parties]; // dealt as needed, see inputBits
    }

    static PreprocessingSource source(Field field, int pool) {
      return (f, party, parties) -> new Replayed(field, party, parties, pool);
    }

    private Shares prefix(Shares s, int count) {
      return count == pool ? s : s.slice(0, count, words);
    }

    private void fits(int count) {
      fits(count, pool);
    }

    private static void fits(int count, int pool) {
      if (count > pool) {
        throw new IllegalStateException(
            "the benchmark's replayed pool holds " + pool + " elements, " + count + " needed");
      }
    }

    @Override
    public long[] macKeyShare() {
      return dealer.macKeyShare();
    }

    @Override
    public Triples triples(int count) {
      fits(count);
      return new Triples(
          prefix(triples.a(), count), prefix(triples.b(), count), prefix(triples.c(), count));
    }

    @Override
    public InputMasks inputMasks(int owner, int count) {
      fits(count);
      InputMasks m = masks[owner];
      long[] values =
          m.values() == null || count == pool
              ? m.values()
              : Arrays.copyOf(m.values(), count * words);
      return new InputMasks(prefix(m.shares(), count), values);
    }

    /**
     * A prefix of the input bits of {@code owner} dealt so far, dealt anew (all parties alike, as
     * they draw alike) when more are asked for: {@link #BITS} per value, the largest part of the
     * material, so that benchmarks without inputs of {@code pool} values never hold them.
     */
    @Override
    public InputMasks inputBits(int owner, int count) {
      fits(count, BITS * pool);
      if (inputBits[owner] == null || inputBits[owner].shares().length < count) {
        inputBits[owner] = dealer.inputBits(owner, count);
      }
      InputMasks m = inputBits[owner];
      if (count == m.shares().length) {
        return m;
      }
      long[] values = m.values() == null ? null : Arrays.copyOf(m.values(), count * words);
      return new InputMasks(m.shares().slice(0, count, words), values);
    }

    @Override
    public Shares randomElements(int count) {
      fits(count);
      if (randoms == null) {
        randoms = new Shares[] {dealer.randomElements(pool), dealer.randomElements(pool)};
      }
      return prefix(randoms[randomDraws++ % 2], count);
    }

    @Override
    public Shares randomBits(int count) {
      return dealer.randomBits(count);
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

  /** Inputs of {@code n} values by two parties, one vector multiplication, the MAC check. */
  @Benchmark
  public Result<SecretVector> multiply(Parties parties, Elements counter) {
    Result<SecretVector> r = parties.run(parties.multiply);
    counter.elements += parties.n;
    return r;
  }

  /**
   * Inputs of {@code n} values by two parties, then {@value Workloads#ADDS} dependent vector
   * additions (local, values and MACs); {@code :elements} counts the additions. Subtract {@link
   * #inputsOnly}'s time per invocation for the additions alone.
   */
  @Benchmark
  public Result<SecretVector> addOnly(Parties parties, Elements counter) {
    Result<SecretVector> r = parties.run(parties.add);
    counter.elements += (long) Workloads.ADDS * parties.n;
    return r;
  }

  /**
   * One vector multiplication of {@code n} elements and the final MAC check, on two vectors of
   * random shared values that the replayed pool hands out ({@link Replayed#randomElements}: no
   * input, no communication, no dealing while timed). {@code :elements}: multiplications/s.
   */
  @Benchmark
  public Result<SecretVector> multiplyOnly(Parties parties, Elements counter) {
    Result<SecretVector> r = parties.run(parties.multiplyOnly);
    counter.elements += parties.n;
    return r;
  }

  /** The inputs of {@link #multiply} alone: the baseline to subtract. */
  @Benchmark
  public Result<SecretVector> inputsOnly(Parties parties, Elements counter) {
    Result<SecretVector> r = parties.run(parties.inputs);
    counter.elements += parties.n;
    return r;
  }

  /** Party 0 inputs {@code n} values; all are opened and MAC-checked. */
  @Benchmark
  public Result<long[]> openAll(Parties parties, Elements counter) {
    Result<long[]> r = parties.run(parties.openAll);
    counter.elements += parties.n;
    return r;
  }

  /** As {@link #openAll}, but only the sum is opened: one value to open and check. */
  @Benchmark
  public Result<Long> openSum(Parties parties, Elements counter) {
    Result<Long> r = parties.run(parties.openSum);
    counter.elements += parties.n;
    return r;
  }
}
