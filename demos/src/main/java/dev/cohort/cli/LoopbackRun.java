package dev.cohort.cli;

import dev.cohort.api.Computation;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.suite.SuiteFactory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * One computation on n parties as threads in this JVM, over loopback with the Netty transport and
 * TLS keys generated for the run (or plain TCP), measured for a {@link DemoReport}.
 *
 * @param results every party's value and metrics, in party order
 * @param outcomes the same costs as the report wants them (one "session")
 * @param wallNanos wall time, keys and connecting included
 * @param usage this process's CPU time and peak heap
 */
record LoopbackRun<T>(
    List<Result<T>> results,
    List<DistanceAverageParty.Outcome> outcomes,
    long wallNanos,
    Resources.Usage usage) {

  /** One party's result with the CPU and wall time of its engine, set-up included. */
  private record Measured<T>(Result<T> result, long cpuNanos, long wallNanos) {}

  static <T> LoopbackRun<T> run(
      int parties,
      SuiteFactory suite,
      boolean plaintext,
      LinkOptions links,
      IntFunction<Computation<T>> computations) {
    Resources resources = Resources.start();
    long start = System.nanoTime();
    Loopback loopback =
        plaintext ? Loopback.insecurePlaintext(Transport.NETTY) : Loopback.tls(Transport.NETTY);
    List<Measured<T>> measured;
    try (LocalParties local =
        LocalParties.builder(parties).mesh(loopback.withEmulation(links.emulation())).open()) {
      measured =
          local.onChannels(
              (p, channel) -> {
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                long cpu = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Result<T> result =
                    new Engine(suite, channel, EngineConfig.defaults()).run(computations.apply(p));
                return new Measured<>(
                    result, threads.getCurrentThreadCpuTime() - cpu, System.nanoTime() - t0);
              });
    }
    long wall = System.nanoTime() - start;
    List<Result<T>> results = new ArrayList<>();
    List<DistanceAverageParty.Outcome> outcomes = new ArrayList<>();
    for (Measured<T> m : measured) {
      RunMetrics metrics = m.result().metrics();
      results.add(m.result());
      outcomes.add(
          new DistanceAverageParty.Outcome(
              metrics.party(),
              1,
              1,
              0,
              metrics.rounds(),
              metrics.setupRounds(),
              metrics.bytesSent(),
              metrics.framesSent(),
              m.cpuNanos(),
              m.wallNanos()));
    }
    return new LoopbackRun<>(results, outcomes, wall, resources.stop());
  }
}
