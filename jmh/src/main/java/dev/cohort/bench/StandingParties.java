package dev.cohort.bench;

import dev.cohort.api.Computation;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
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

/**
 * n parties whose engines and threads live across benchmark invocations, over the in-memory
 * transport: the calling thread runs party 0, one single-thread executor per other party runs the
 * rest. An invocation then measures the protocol, not thread start-up or one-off set-up.
 */
final class StandingParties implements AutoCloseable {

  private final Channel[] channels;
  private final Engine[] engines;
  private final ExecutorService[] helpers; // index p - 1 runs party p

  /** INSECURE: engines use a fixed PRG seed, for repeatable benchmarks only. */
  StandingParties(int parties, SuiteFactory suite, long insecureSeed) {
    InMemoryNetwork network = new InMemoryNetwork(parties, Duration.ofSeconds(60));
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(insecureSeed);
    channels = new Channel[parties];
    engines = new Engine[parties];
    for (int p = 0; p < parties; p++) {
      channels[p] = network.channel(p);
      engines[p] = new Engine(suite, channels[p], config);
    }
    helpers = new ExecutorService[parties - 1];
    for (int p = 1; p < parties; p++) {
      String name = "bench-party-" + p;
      helpers[p - 1] =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
              });
    }
  }

  /** Runs {@code computation} on every party; returns party 0's result when all have finished. */
  <T> Result<T> run(Computation<T> computation) {
    List<Future<Result<T>>> others = new ArrayList<>(helpers.length);
    for (int p = 1; p < engines.length; p++) {
      Engine engine = engines[p];
      others.add(helpers[p - 1].submit(() -> engine.run(computation)));
    }
    Result<T> mine = engines[0].run(computation);
    for (Future<Result<T>> other : others) {
      try {
        other.get(120, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        throw new IllegalStateException("a helper party failed", e.getCause());
      } catch (TimeoutException e) {
        throw new IllegalStateException("a helper party did not finish within 120 s", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the helpers", e);
      }
    }
    return mine;
  }

  @Override
  public void close() {
    for (ExecutorService helper : helpers) {
      helper.shutdownNow();
    }
    for (Channel channel : channels) {
      channel.close();
    }
  }
}
