package dev.cohort.harness;

import dev.cohort.api.Computation;
import dev.cohort.api.PartyId;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.SessionsResult;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.net.TrafficStats;
import dev.cohort.suite.SuiteFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * Runs a computation on n parties as threads in one JVM over the in-memory transport, and returns
 * every party's result and metrics. The first party to fail is named in the exception; the others
 * fail promptly because a failing engine aborts its channel. Used by tests and by demos that keep
 * all parties in one process.
 */
public final class LocalParties {

  private final int parties;
  private final SuiteFactory suite;
  private final EngineConfig config;
  private final Duration timeout;

  public LocalParties(int parties, SuiteFactory suite, EngineConfig config, Duration timeout) {
    suite.validate(parties);
    this.parties = parties;
    this.suite = suite;
    this.config = config;
    this.timeout = timeout;
  }

  /** Every party runs the same computation; results in party order. */
  public <T> List<Result<T>> run(Computation<T> computation) {
    return runEach(party -> computation);
  }

  /**
   * Party {@code i} runs {@code computations.apply(i)}: the same circuit with its own inputs (a
   * computation may read its inputs through {@code builder.myId()} too).
   */
  public <T> List<Result<T>> runEach(IntFunction<Computation<T>> computations) {
    return runParties(party -> engine -> engine.run(computations.apply(party)));
  }

  /**
   * Every party runs the same sessions with {@link Engine#runSessions}, at most {@code parallelism}
   * in flight; results in party order.
   */
  public <T> List<SessionsResult<T>> runSessions(
      List<? extends Computation<T>> sessions, int parallelism) {
    return runSessionsEach(party -> sessions, parallelism);
  }

  /** Party {@code i} runs the sessions {@code sessions.apply(i)}: the same circuits, its inputs. */
  public <T> List<SessionsResult<T>> runSessionsEach(
      IntFunction<List<? extends Computation<T>>> sessions, int parallelism) {
    return runParties(party -> engine -> engine.runSessions(sessions.apply(party), parallelism));
  }

  /** Party {@code i} runs {@code work.apply(i)} on a fresh engine of its own. */
  private <R> List<R> runParties(IntFunction<Function<Engine, R>> work) {
    InMemoryNetwork network = new InMemoryNetwork(parties, timeout);
    ExecutorService pool =
        Executors.newFixedThreadPool(
            parties,
            r -> {
              Thread t = new Thread(r, "cohort-party");
              t.setDaemon(true);
              return t;
            });
    AtomicInteger failureOrder = new AtomicInteger();
    int[] failedAt = new int[parties];
    List<Future<R>> futures = new ArrayList<>();
    try {
      for (int p = 0; p < parties; p++) {
        int party = p;
        futures.add(
            pool.submit(
                () -> {
                  Thread.currentThread().setName("cohort-" + PartyId.of(party));
                  // A failing engine aborts its channel before it rethrows, and its peers fail
                  // as soon as they see the abort: rank the failure when the party aborts, or
                  // the first party to fail may be ranked after the peers it brought down.
                  Runnable failed =
                      () -> {
                        if (failedAt[party] == 0) {
                          failedAt[party] = failureOrder.incrementAndGet();
                        }
                      };
                  try (Channel channel = new RankingChannel(network.channel(party), failed)) {
                    Engine engine = new Engine(suite, channel, config);
                    return work.apply(party).apply(engine);
                  } catch (RuntimeException | Error e) {
                    failed.run();
                    throw e;
                  }
                }));
      }
      return collect(futures, failedAt);
    } finally {
      pool.shutdownNow();
    }
  }

  private <R> List<R> collect(List<Future<R>> futures, int[] failedAt) {
    List<R> results = new ArrayList<>();
    Throwable[] causes = new Throwable[parties];
    long deadline = System.nanoTime() + timeout.toNanos() * 2;
    for (int p = 0; p < parties; p++) {
      try {
        long left = Math.max(1, deadline - System.nanoTime());
        results.add(futures.get(p).get(left, TimeUnit.NANOSECONDS));
      } catch (ExecutionException e) {
        causes[p] = e.getCause();
        results.add(null);
      } catch (TimeoutException e) {
        causes[p] = new IllegalStateException("did not finish within " + timeout.multipliedBy(2));
        results.add(null);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the parties", e);
      }
    }
    int first = -1;
    for (int p = 0; p < parties; p++) {
      if (causes[p] != null && (first < 0 || rank(failedAt[p]) < rank(failedAt[first]))) {
        first = p;
      }
    }
    if (first >= 0) {
      PartyFailedException failure = new PartyFailedException(PartyId.of(first), causes[first]);
      for (int p = 0; p < parties; p++) {
        if (p != first && causes[p] != null) {
          failure.addSuppressed(new PartyFailedException(PartyId.of(p), causes[p]));
        }
      }
      throw failure;
    }
    return results;
  }

  private static int rank(int order) {
    return order == 0 ? Integer.MAX_VALUE : order;
  }

  /** A channel that runs {@code onAbort} before it tells the peers that this party gives up. */
  private static final class RankingChannel implements Channel {
    private final Channel channel;
    private final Runnable onAbort;

    RankingChannel(Channel channel, Runnable onAbort) {
      this.channel = channel;
      this.onAbort = onAbort;
    }

    @Override
    public int myId() {
      return channel.myId();
    }

    @Override
    public int parties() {
      return channel.parties();
    }

    @Override
    public long[][] exchange(long[][] outgoing, int[] lengths) {
      return channel.exchange(outgoing, lengths);
    }

    @Override
    public TrafficStats stats() {
      return channel.stats();
    }

    @Override
    public void abort(String reason) {
      onAbort.run();
      channel.abort(reason);
    }

    @Override
    public void close() {
      channel.close();
    }
  }
}
