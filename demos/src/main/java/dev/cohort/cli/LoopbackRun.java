package dev.cohort.cli;

import dev.cohort.api.Computation;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;

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

  static <T> LoopbackRun<T> run(
      int parties,
      SuiteFactory suite,
      boolean plaintext,
      LinkOptions links,
      IntFunction<Computation<T>> computations) {
    Resources resources = Resources.start();
    long start = System.nanoTime();
    Path keys = null;
    List<Object[]> measured;
    try {
      if (!plaintext) {
        keys = Files.createTempDirectory("cohort-keys-");
        Certificates.generate(keys, parties);
      }
      Path keysDir = keys;
      measured =
          Mesh.loopback(
              parties,
              p ->
                  links.applyTo(
                      plaintext
                          ? TransportOptions.plaintextInsecure()
                          : TransportOptions.tls(TlsIdentity.load(keysDir, p))),
              Mesh.Transport.NETTY,
              (p, transport) -> {
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                long cpu = threads.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                Result<T> result =
                    new Engine(suite, transport, EngineConfig.defaults())
                        .run(computations.apply(p));
                return new Object[] {
                  result, threads.getCurrentThreadCpuTime() - cpu, System.nanoTime() - t0
                };
              });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a directory for the run's keys", e);
    } finally {
      deleteQuietly(keys);
    }
    long wall = System.nanoTime() - start;
    List<Result<T>> results = new ArrayList<>();
    List<DistanceAverageParty.Outcome> outcomes = new ArrayList<>();
    for (Object[] m : measured) {
      @SuppressWarnings("unchecked")
      Result<T> result = (Result<T>) m[0];
      RunMetrics metrics = result.metrics();
      results.add(result);
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
              (Long) m[1],
              (Long) m[2]));
    }
    return new LoopbackRun<>(results, outcomes, wall, resources.stop());
  }

  static void deleteQuietly(Path directory) {
    if (directory == null) {
      return;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temporary directory that stays behind is harmless
    }
  }
}
