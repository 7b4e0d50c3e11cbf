package dev.cohort.clients;

import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Field;
import dev.cohort.harness.LocalParties;
import dev.cohort.net.Channel;
import dev.cohort.spdz.SpdzConfig;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.SuiteFactory;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Test fixture: n BGW or SPDZ input servers as threads over the in-memory mesh, clients in memory.
 * The driver runs on its own thread once every server exists, while the servers run their sessions.
 */
final class Servers {

  private Servers() {}

  /** How each server is configured, given its index and its builder. */
  interface Configure {
    InputServer.Builder apply(int server, InputServer.Builder b);
  }

  /** What a server's mesh channel becomes: itself, or a corrupt server's decorator of it. */
  interface Channels {
    Channel wrap(int server, Channel channel);
  }

  /**
   * The servers' suite: how each server's engine is made, whether it is SPDZ, and what each
   * server's mesh channel becomes.
   */
  record Suite(IntFunction<SuiteFactory> factory, boolean spdz, Channels channels) {

    Suite(IntFunction<SuiteFactory> factory, boolean spdz) {
      this(factory, spdz, (p, c) -> c);
    }

    static Suite bgw(Field field) {
      return new Suite(p -> BgwSuite.factory(field), false);
    }

    Suite withChannels(Channels decorate) {
      return new Suite(factory, spdz, decorate);
    }

    /** SPDZ with the seeded in-process dealer: INSECURE, for tests. */
    static Suite spdz(Field field) {
      return spdz(SpdzConfig.insecureDealer(field, 20));
    }

    static Suite spdz(SpdzConfig config) {
      return new Suite(p -> SpdzSuite.factory(config), true);
    }
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
    return run(Suite.bgw(field), n, shape, sessions, configure, driver);
  }

  static <R> Run<R> run(
      Suite suite,
      int n,
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
              (p, mesh) -> {
                Channel channel = suite.channels().wrap(p, mesh);
                Engine engine =
                    new Engine(suite.factory().apply(p), channel, EngineConfig.defaults());
                InputServer.Builder b =
                    suite.spdz()
                        ? InputServer.spdz(engine, channel, shape)
                        : InputServer.bgw(engine, channel, shape);
                InputServer s = configure.apply(p, b).build();
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
