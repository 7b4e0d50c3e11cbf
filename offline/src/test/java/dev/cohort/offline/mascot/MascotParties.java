package dev.cohort.offline.mascot;

import dev.cohort.field.Field;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.offline.ot.InsecureIdealOts;
import dev.cohort.random.Prg;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Parties of a MASCOT test as threads over an in-memory network, each with its own {@link
 * MascotPreprocessing} (ideal OTs, seeded PRGs): every party's result or failure, in party order,
 * so that a test can assert what each honest party saw.
 */
final class MascotParties {

  /** What one party does with its preprocessing. */
  interface Task<R> {
    R run(int party, MascotPreprocessing preprocessing);
  }

  /** One party's outcome: its result, or what it threw. */
  record Outcome<R>(R result, Throwable failure) {}

  private MascotParties() {}

  /** Runs {@code task} at every party, all honest. */
  static <R> List<R> run(Field field, int n, long seed, Task<R> task) {
    List<Outcome<R>> outcomes = run(field, n, seed, p -> Deviation.NONE, c -> c, task);
    List<R> results = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      Throwable t = outcomes.get(p).failure();
      if (t != null) {
        throw new AssertionError("P" + p + " failed", t);
      }
      results.add(outcomes.get(p).result());
    }
    return results;
  }

  /**
   * Runs {@code task} at every party; party p deviates as {@code deviations.apply(p)} and its
   * channel is {@code channels.apply(channel)} (wrappers see the channel's {@code myId}).
   */
  static <R> List<Outcome<R>> run(
      Field field,
      int n,
      long seed,
      IntFunction<Deviation> deviations,
      java.util.function.UnaryOperator<Channel> channels,
      Task<R> task) {
    InMemoryNetwork network = new InMemoryNetwork(n, Duration.ofSeconds(60));
    List<Outcome<R>> outcomes = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      outcomes.add(null);
    }
    for (int p = 0; p < n; p++) {
      int party = p;
      Channel channel = channels.apply(network.channel(p));
      Thread thread =
          new Thread(
              () -> {
                try {
                  MascotPreprocessing pre =
                      new MascotPreprocessing(
                          field,
                          channel,
                          new MascotPreprocessing.Ots(
                              new InsecureIdealOts(seed, 1, party, n),
                              new InsecureIdealOts(seed, 2, party, n)),
                          Prg.seeded(seed * 1000 + party),
                          deviations.apply(party));
                  R r = task.run(party, pre);
                  synchronized (outcomes) {
                    outcomes.set(party, new Outcome<>(r, null));
                  }
                } catch (Throwable t) { // every party's outcome is the test's to judge
                  channel.abort(String.valueOf(t.getMessage()));
                  synchronized (outcomes) {
                    outcomes.set(party, new Outcome<>(null, t));
                  }
                }
              },
              "P" + p);
      threads.add(thread);
      thread.start();
    }
    for (Thread t : threads) {
      try {
        t.join(120_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted", e);
      }
      if (t.isAlive()) {
        throw new AssertionError(t.getName() + " did not finish within 120 s");
      }
    }
    synchronized (outcomes) {
      return new ArrayList<>(outcomes);
    }
  }
}
