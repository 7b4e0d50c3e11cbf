package dev.cohort.bench;

import com.sun.management.OperatingSystemMXBean;
import com.sun.management.ThreadMXBean;
import dev.cohort.api.Computation;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What a batch of {@value SessionsBenchmark#SESSIONS} distance-average sessions costs the process:
 * wall time, CPU time (all threads: the parties, the transport's, the JIT and the GC) and bytes
 * allocated, per batch, as medians of 5 rounds after a warm-up. CPU time and allocation vary far
 * less than wall time on a shared machine, so this is the tool for an A/B of two builds: run the
 * old and the new jar alternately and compare.
 *
 * <p>The workload is {@link SessionsBenchmark}'s; SPDZ uses its INSECURE seeded in-process dealer.
 *
 * <p>Run: {@code java -cp jmh/target/benchmarks.jar dev.cohort.bench.SessionsCost [bgw|spdz]
 * [memory|tls|socket-tls] [parallelism] [batches per round]} (defaults: bgw memory 1000 1000).
 */
public final class SessionsCost {

  private static final int ROUNDS = 5;

  private SessionsCost() {}

  public static void main(String[] args) {
    String suite = args.length > 0 ? args[0] : "bgw";
    String transport = args.length > 1 ? args[1] : Transports.MEMORY;
    int parallelism = args.length > 2 ? Integer.parseInt(args[2]) : SessionsBenchmark.SESSIONS;
    int batches = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
    SuiteFactory factory =
        switch (suite) {
          case "bgw" -> BgwSuite.factory(Fields.MERSENNE_61);
          case "spdz" ->
              SpdzSuite.factory(
                  SpdzConfig.insecureDealer(Fields.MERSENNE_61, SessionsBenchmark.SEED));
          default -> throw new IllegalArgumentException("suite " + suite + ": want bgw or spdz");
        };
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    // INSECURE: a fixed engine seed, for repeatable measurements only.
    try (LocalParties parties =
        Transports.standing(
            transport, SessionsBenchmark.PARTIES, factory, SessionsBenchmark.SEED)) {
      List<List<Computation<Long>>> sessions = new ArrayList<>();
      for (int p = 0; p < SessionsBenchmark.PARTIES; p++) {
        sessions.add(SessionsBenchmark.distanceSessions(p));
      }
      for (int i = 0; i < 2 * batches; i++) { // warm-up: the JIT settles
        parties.runSessionsEach(sessions::get, parallelism);
      }
      double[] wall = new double[ROUNDS];
      double[] cpu = new double[ROUNDS];
      double[] allocated = new double[ROUNDS];
      for (int r = 0; r < ROUNDS; r++) {
        long w0 = System.nanoTime();
        long c0 = os.getProcessCpuTime();
        long a0 = allocatedBytes();
        for (int i = 0; i < batches; i++) {
          parties.runSessionsEach(sessions::get, parallelism);
        }
        wall[r] = (System.nanoTime() - w0) / 1e6 / batches;
        cpu[r] = (os.getProcessCpuTime() - c0) / 1e6 / batches;
        allocated[r] = (allocatedBytes() - a0) / 1024.0 / batches;
      }
      System.out.printf(
          "%s %s, %d sessions at parallelism %d, per batch (median of %d rounds of %d):"
              + " wall %.3f ms, CPU %.3f ms, allocated %.0f KB%n",
          suite,
          transport,
          SessionsBenchmark.SESSIONS,
          parallelism,
          ROUNDS,
          batches,
          median(wall),
          median(cpu),
          median(allocated));
    }
  }

  /** Bytes allocated so far by the threads alive now. */
  private static long allocatedBytes() {
    ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (long bytes : threads.getThreadAllocatedBytes(threads.getAllThreadIds())) {
      sum += Math.max(bytes, 0);
    }
    return sum;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
