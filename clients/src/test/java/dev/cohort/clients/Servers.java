package dev.cohort.clients;

import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Field;
import dev.cohort.harness.LocalParties;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Test fixture: n BGW input servers as threads over the in-memory mesh, clients in memory. The
 * driver runs on its own thread once every server exists, while the servers run their sessions.
 */
final class Servers {

  private Servers() {}

  /** How each server is configured, given its index and its builder. */
  interface Configure {
    InputServer.Builder apply(int server, InputServer.Builder b);
  }

  /** What the servers' sessions produced, and what the driver returned. */
  record Run<R>(List<List<SessionOutcome<long[]>>> outcomes, R driver, InputServer[] servers) {}

  static <R> Run<R> run(
      int n,
      Field field,
      Shape shape,
      int sessions,
      Configure configure,
      java.util.function.Function<InMemoryClients, R> driver) {
    InputServer[] servers = new InputServer[n];
    CountDownLatch built = new CountDownLatch(n);
    CompletableFuture<R> driven =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                if (!built.await(60, TimeUnit.SECONDS)) {
                  throw new IllegalStateException("the servers did not start");
                }
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              return driver.apply(new InMemoryClients(servers));
            });
    try (LocalParties parties = LocalParties.builder(n).deadline(Duration.ofSeconds(120)).open()) {
      List<List<SessionOutcome<long[]>>> outcomes =
          parties.onChannels(
              (p, channel) -> {
                Engine engine =
                    new Engine(BgwSuite.factory(field), channel, EngineConfig.defaults());
                InputServer s = configure.apply(p, InputServer.bgw(engine, channel, shape)).build();
                servers[p] = s;
                built.countDown();
                List<SessionOutcome<long[]>> mine = new java.util.ArrayList<>();
                for (int k = 0; k < sessions; k++) {
                  mine.add(s.runSession(new Sums()));
                }
                return mine;
              });
      return new Run<>(outcomes, driven.join(), servers);
    }
  }

  /** Runs {@code task(i)} for i < count on a pool of threads and waits for all. */
  static <T> List<T> parallel(int count, int threads, IntFunction<T> task) {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(threads);
    try {
      List<java.util.concurrent.Future<T>> futures = new java.util.ArrayList<>();
      for (int i = 0; i < count; i++) {
        int id = i;
        futures.add(pool.submit(() -> task.apply(id)));
      }
      List<T> out = new java.util.ArrayList<>();
      for (java.util.concurrent.Future<T> f : futures) {
        out.add(f.get(120, TimeUnit.SECONDS));
      }
      return out;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      pool.shutdownNow();
    }
  }

  static void each(int count, int threads, Consumer<Integer> task) {
    parallel(
        count,
        threads,
        i -> {
          task.accept(i);
          return null;
        });
  }
}
