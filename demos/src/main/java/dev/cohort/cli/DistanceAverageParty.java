package dev.cohort.cli;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.Step;
import dev.cohort.engine.Engine;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * One party's side of the distance-average demo: P0 is the statistics server, P1..Pn-1 are the
 * devices. Every party runs the same sequence of engine runs:
 *
 * <ol>
 *   <li>a resume run: the server inputs the last session its checkpoint says finished and the last
 *       session of this run, and they are opened to everyone, so all parties continue from the same
 *       session (the parallelism, like the number of sessions, is configuration: the engine checks
 *       that every party was given the same, {@link #agreed});
 *   <li>then batches of up to {@code parallelism} sessions per engine run: the server inputs the
 *       running sum, every device inputs its distance of each session in the batch, and after each
 *       session the new running sum is opened to the server only. Sessions are {@code par}
 *       branches, so their inputs share one round and their openings another.
 * </ol>
 *
 * <p>The server saves its checkpoint after every session. A device learns nothing but the session
 * number; the server learns the running sums, and so each session's total, never one device's
 * distance.
 */
final class DistanceAverageParty {

  /** Declared bit length of a device's distance per session, in metres. */
  static final int DISTANCE_BITS = 32;

  /** Declared bit length of the session number in the resume run. */
  static final int SESSION_BITS = 32;

  /** What one party's runs cost and, at the server, what they computed. */
  record Outcome(
      int party,
      long firstSession,
      long lastSession,
      long runningSum,
      long rounds,
      long setupRounds,
      long[] bytesSent,
      long[] framesSent,
      long threadCpuNanos,
      long sessionNanos) {

    long sessionsRun() {
      return lastSession - firstSession + 1;
    }
  }

  /** Told about each finished session, at the server only. */
  interface Listener {
    void finished(long session, long runningSum);
  }

  /**
   * The sessions to run: up to {@code sessions} in all, at most {@code stopAfter} in this run; the
   * server saves its checkpoint every {@code checkpointEvery} sessions and when the run ends or
   * stops.
   */
  record Plan(
      int parties,
      long sessions,
      int parallelism,
      long stopAfter,
      int sumBits,
      int checkpointEvery) {
    Plan(int parties, long sessions, int parallelism, long stopAfter, int sumBits) {
      this(parties, sessions, parallelism, stopAfter, sumBits, 1);
    }
  }

  /**
   * The SPDZ material one process run of {@code sessions} sessions uses (a restart is another run):
   * every k-bit input costs k input bits of its owner (its bits, which make its range hold by
   * construction), and every opening to the server one input mask of the server's; nothing is
   * multiplied, so no triples. The resume run inputs two {@link #SESSION_BITS}-bit values; each
   * batch of up to {@code parallelism} sessions inputs the running sum ({@code sumBits}); each
   * session inputs one {@link #DISTANCE_BITS}-bit distance per device and opens the running sum to
   * the server.
   *
   * @param serverMasks input masks of P0 (one per opening to the server)
   * @param serverInputBits input bits of P0
   * @param deviceInputBits input bits of each device
   */
  record Material(long serverMasks, long serverInputBits, long deviceInputBits) {

    static Material of(long sessions, int parallelism, int sumBits) {
      long batches = (sessions + parallelism - 1) / parallelism;
      long resume = 2L * SESSION_BITS;
      return new Material(sessions, resume + batches * sumBits, sessions * DISTANCE_BITS);
    }
  }

  /**
   * The declared bit length of the server's running-sum input over {@code field}: 62 bits, or the
   * field's bit length minus 2 on a smaller field (59 on m61).
   */
  static int sumBits(dev.cohort.field.Field field) {
    return Math.min(62, field.bitLength() - 2);
  }

  /**
   * What every party of a run must be given the same: the plan's sessions and parallelism and the
   * traces, added to {@code config} as settings the engine compares when it starts, so that a
   * difference fails on every party naming the setting with both values.
   */
  static dev.cohort.engine.EngineConfig agreed(
      dev.cohort.engine.EngineConfig config, Plan plan, String traces) {
    return config
        .withAgreed("--sessions", String.valueOf(plan.sessions()))
        .withAgreed("--parallelism", String.valueOf(plan.parallelism()))
        .withAgreed("traces", traces);
  }

  private final int me;
  private final Plan plan;
  private final Traces traces;
  private final Checkpoint checkpoint;
  private final Listener listener;
  private long rounds;
  private long setupRounds;
  private final long[] bytesSent;
  private final long[] framesSent;
  private LongPredicate stopRequested = lastSession -> false;
  private MaterialCheck materialCheck = (first, end, parallelism) -> {};

  /** Checks, before the first session, that the material covers sessions first..end. */
  @FunctionalInterface
  interface MaterialCheck {
    void check(long first, long end, int parallelism);
  }

  DistanceAverageParty(int me, Plan plan, Traces traces, Checkpoint checkpoint, Listener listener) {
    this.me = me;
    this.plan = plan;
    this.traces = traces;
    this.checkpoint = checkpoint;
    this.listener = listener;
    this.bytesSent = new long[plan.parties()];
    this.framesSent = new long[plan.parties()];
  }

  /**
   * Makes the run stop after the batch ending with the session for which {@code stop} answers true
   * (a signal: {@link GracefulStop}), with the checkpoint saved. Parties in one process must get
   * the same answer for the same session ({@link GracefulStop#decide}), or one would stop a batch
   * before the others.
   */
  DistanceAverageParty stopWhen(LongPredicate stop) {
    this.stopRequested = stop;
    return this;
  }

  /** Checks the material with {@code check} once the parties agree which sessions to run. */
  DistanceAverageParty checkMaterial(MaterialCheck check) {
    this.materialCheck = check;
    return this;
  }

  /**
   * How many sessions from a run's first one material covers: {@code serverMasks} input masks of
   * the server, {@code serverBits} input bits of the server and {@code deviceBits} of the device
   * with the fewest (in batches of {@code parallelism} with an {@code sumBits}-bit running sum).
   */
  static long sessionsCovered(
      long serverMasks, long serverBits, long deviceBits, int parallelism, int sumBits) {
    long byMasks = serverMasks;
    long byServerBits = serverBits / sumBits * parallelism;
    long byDeviceBits = deviceBits / DISTANCE_BITS;
    return Math.min(byMasks, Math.min(byServerBits, byDeviceBits));
  }

  /** Runs every session this run should, on {@code engine}; call on the party's own thread. */
  Outcome run(Engine engine) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuStart =
        threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
    Checkpoint.State state =
        me == 0 ? checkpoint.load(plan.parties() - 1) : new Checkpoint.State(0, 0, 0);
    long last = state.lastSession();
    long end =
        plan.sessions() - last <= plan.stopAfter() ? plan.sessions() : last + plan.stopAfter();
    // The server decides where this run starts and ends and how many sessions go in one engine
    // run; the devices follow, so only the server's --stop-after and checkpoint matter.
    long[] resumed = add(engine.run(resume(new long[] {last, end})));
    last = resumed[0];
    end = resumed[1];
    int parallelism = plan.parallelism();
    if (end > plan.sessions()) {
      throw new IllegalArgumentException(
          "the server runs to session "
              + end
              + " but this party was given "
              + plan.sessions()
              + " sessions: start every party with the same --sessions");
    }
    long sum = state.runningSum();
    long first = last + 1;
    if (first <= end) {
      materialCheck.check(first, end, parallelism);
    }
    long sessionsStart = System.nanoTime();
    for (long session = first; session <= end; session += parallelism) {
      int count = (int) Math.min(parallelism, end - session + 1);
      List<Long> sums = add(engine.run(batch(session, count, sum)));
      boolean stopping = session + count <= end && stopRequested.test(session + count - 1);
      for (int j = 0; j < sums.size(); j++) {
        sum = sums.get(j);
        long done = session + j;
        boolean lastOfRun = done == end || stopping && j == sums.size() - 1;
        if (lastOfRun || (done - first + 1) % plan.checkpointEvery() == 0) {
          checkpoint.save(new Checkpoint.State(done, sum, plan.parties() - 1));
        }
        listener.finished(done, sum);
      }
      if (stopping) {
        end = session + count - 1;
        break;
      }
    }
    long cpu =
        threads.isCurrentThreadCpuTimeSupported()
            ? threads.getCurrentThreadCpuTime() - cpuStart
            : 0;
    return new Outcome(
        me,
        first,
        Math.max(end, last),
        sum,
        rounds,
        setupRounds,
        bytesSent,
        framesSent,
        cpu,
        System.nanoTime() - sessionsStart);
  }

  private <T> T add(Result<T> result) {
    RunMetrics m = result.metrics();
    rounds += m.rounds();
    setupRounds += m.setupRounds();
    for (int p = 0; p < bytesSent.length; p++) {
      bytesSent[p] += m.bytesSent()[p];
      framesSent[p] += m.framesSent()[p];
    }
    return result.value();
  }

  /** The server's last finished session, last session of this run and parallelism, opened. */
  private Computation<long[]> resume(long[] plan) {
    return b -> b.open(b.input(0, me == 0 ? plan : null, plan.length, SESSION_BITS));
  }

  /**
   * Sessions {@code first .. first + count - 1}: the running sums after each, opened to the server
   * (an empty list at the devices).
   */
  Computation<List<Long>> batch(long first, int count, long runningSum) {
    return b -> {
      Secret running = b.input(0, me == 0 ? runningSum : 0, plan.sumBits());
      List<Deferred<Long>> sums = new ArrayList<>(count);
      for (int j = 0; j < count; j++) {
        long session = first + j;
        Step<Secret> total = b.par(branch -> Deferred.of(sessionTotal(branch, session)));
        running = b.add(running, b.secretOf(total));
        sums.add(b.openTo(0, running));
      }
      return () -> {
        List<Long> values = new ArrayList<>(count);
        if (me == 0) {
          for (Deferred<Long> d : sums) {
            values.add(d.get());
          }
        }
        return values;
      };
    };
  }

  /** The sum of every device's distance in {@code session}; each device reads only its own. */
  private Secret sessionTotal(dev.cohort.api.Numeric b, long session) {
    List<Secret> distances = new ArrayList<>(plan.parties() - 1);
    for (int p = 1; p < plan.parties(); p++) {
      long mine = me == p ? traces.distance(p - 1, (int) session) : 0;
      distances.add(b.input(p, mine, DISTANCE_BITS));
    }
    return b.sum(distances);
  }
}
