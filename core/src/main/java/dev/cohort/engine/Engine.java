package dev.cohort.engine;

import dev.cohort.api.Computation;
import dev.cohort.gate.GateBatch;
import dev.cohort.gate.Graph;
import dev.cohort.gate.SessionScheduler;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.producer.Root;
import dev.cohort.random.Prg;
import dev.cohort.suite.AllOf;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One party's engine: evaluates computations round by round over a {@link Channel}.
 *
 * <p>Each round it asks the graph for the interactive gates that are ready (up to the batch size in
 * flight), lets every running protocol write its messages, exchanges one frame per peer, and lets
 * every protocol read. Local gates run in between, cost no round and never end a batch; a gate that
 * becomes ready joins the very next round.
 *
 * <p>Not thread-safe: one engine per party thread; runs on one engine happen one after another.
 */
public final class Engine {

  private static final Logger log = LoggerFactory.getLogger(Engine.class);

  private final Suite suite;
  private final Channel channel;
  private final EngineConfig config;
  private final Outbox outbox;
  private final Inbox inbox;
  private final long[][] buffers; // the outbox's frames, handed to the channel each round
  private final int[] lengths;
  private final SortedMap<String, String> agreed; // what every party must agree on
  private boolean setUp;
  private boolean failed;

  public Engine(SuiteFactory factory, Channel channel, EngineConfig config) {
    factory.validate(channel.parties());
    Prg prg =
        config.insecureSeed() == null
            ? Prg.secure()
            : Prg.seeded(config.insecureSeed() * 1_000_003L + channel.myId());
    this.suite = factory.create(channel.myId(), channel.parties(), prg);
    // what must agree; not factory.name(), which may hold per-party details such as file paths
    TreeMap<String, String> agreed = new TreeMap<>(config.agreed());
    agreed.put("suite", suite.getClass().getSimpleName());
    agreed.put("field", suite.field().name());
    agreed.put("parties", String.valueOf(channel.parties()));
    agreed.put("batch size", String.valueOf(config.batchSize()));
    this.agreed = agreed;
    this.channel = channel;
    this.config = config;
    this.outbox = new Outbox(channel.myId(), channel.parties());
    this.inbox = new Inbox(channel.parties());
    this.buffers = new long[channel.parties()][];
    this.lengths = new int[channel.parties()];
  }

  public Suite suite() {
    return suite;
  }

  /** Runs {@code computation} to the end and returns its value at this party. */
  public <T> Result<T> run(Computation<T> computation) {
    SessionsResult<T> r = execute(Collections.singletonList(computation), 1, false);
    return new Result<>(r.values().get(0), r.metrics());
  }

  /**
   * Runs independent computations (sessions) with at most {@code parallelism} in flight: their
   * rounds are merged, so {@code k} sessions of {@code r} rounds each at parallelism {@code k} take
   * about {@code r} rounds, and every round still costs one frame per peer. When a session finishes
   * the next one starts, and its first gates join the next round. Every party must pass the same
   * sessions (with its own inputs) and the same parallelism.
   *
   * <p>A session that fails fails the whole run, with a {@link SessionFailedException} naming it
   * when the failure is in that session's own code (building it, its steps, its results); a failure
   * of a batch shared by many sessions (a peer's bad share) names no session.
   */
  public <T> SessionsResult<T> runSessions(
      List<? extends Computation<T>> sessions, int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("parallelism (" + parallelism + ") must be >= 1");
    }
    return execute(sessions, parallelism, true);
  }

  private <T> SessionsResult<T> execute(
      List<? extends Computation<T>> sessions, int parallelism, boolean nameSessions) {
    if (failed) {
      throw new IllegalStateException("this engine failed in an earlier run; create a new one");
    }
    MDC.put("party", "P" + channel.myId());
    Graph graph = new Graph(suite);
    try {
      SessionsResult<T> result = runChecked(graph, sessions, parallelism);
      RunMetrics m = result.metrics();
      log.debug(
          "run finished: {} sessions, {} rounds, {} bytes sent, {} ms",
          sessions.size(),
          m.rounds(),
          m.totalBytesSent(),
          m.wallNanos() / 1_000_000);
      return result;
    } catch (RuntimeException | Error e) {
      failed = true;
      log.debug("run failed: {}", e.toString());
      channel.abort(e.getClass().getSimpleName() + ": " + e.getMessage());
      int session = graph.currentSession();
      if (nameSessions && session >= 0 && e instanceof RuntimeException) {
        throw new SessionFailedException(session, e);
      }
      throw e;
    } finally {
      MDC.remove("party");
    }
  }

  private <T> SessionsResult<T> runChecked(
      Graph graph, List<? extends Computation<T>> sessions, int parallelism) {
    long start = System.nanoTime();
    TrafficStats before = channel.stats().copy();
    long waitedBefore = suite.materialWaitNanos();
    long setupRounds = 0;
    if (!setUp) {
      setUp = true;
      // The configuration check rides on the suite's set-up round; a suite without one gets a
      // round of its own only when the application declared settings to agree on.
      RoundProtocol setup = suite.setup();
      RoundProtocol check = new ConfigurationCheck(suite.myId(), suite.parties(), agreed);
      if (setup != null) {
        setupRounds = runAlone(new AllOf(List.of(check, setup)));
      } else if (!config.agreed().isEmpty()) {
        setupRounds = runAlone(check);
      }
    }
    SessionScheduler<T> scheduler =
        new SessionScheduler<>(graph, sessions, parallelism, Root::build);
    List<Running> running = new ArrayList<>();
    long rounds = 0;
    while (true) {
      int inFlight = 0;
      for (Running r : running) {
        inFlight += r.elements();
      }
      for (GateBatch batch : graph.start(config.batchSize() - inFlight)) {
        running.add(new Running(batch.protocol(), batch));
      }
      if (running.isEmpty()) {
        if (!scheduler.isComplete()) {
          throw new IllegalStateException(
              "computation stalled: gates wait for values that nothing computes");
        }
        break;
      }
      RoundProtocol check = suite.check(false);
      if (check != null) {
        running.add(new Running(check, null));
      }
      rounds++;
      round(running, rounds);
    }
    RoundProtocol finalCheck = suite.check(true);
    if (finalCheck != null) {
      rounds += runAlone(finalCheck);
    }
    TrafficStats traffic = channel.stats().since(before);
    RunMetrics metrics =
        new RunMetrics(
            suite.myId(),
            rounds,
            setupRounds,
            graph.counts().gatesByKind(),
            graph.counts().elementsByKind(),
            graph.counts().batchesByKind(),
            graph.counts().localGates(),
            traffic.bytesSent,
            traffic.framesSent,
            System.nanoTime() - start,
            suite.materialWaitNanos() - waitedBefore);
    return new SessionsResult<>(scheduler.values(), metrics);
  }

  /** One exchange: every running protocol writes, frames cross, every protocol reads. */
  private void round(List<Running> running, long roundIndex) {
    outbox.clear();
    for (Running r : running) {
      r.protocol.send(r.round, outbox);
    }
    for (int p = 0; p < lengths.length; p++) {
      buffers[p] = outbox.buffer(p);
      lengths[p] = outbox.length(p);
    }
    inbox.reset((int) roundIndex, channel.exchange(buffers, lengths));
    // Compact the survivors in place (no removeAll: with many batches in flight it is O(n^2)),
    // then finish the others, in the order they ran, once every protocol has read its messages.
    int kept = 0;
    int size = running.size();
    List<Running> finished = null;
    for (int i = 0; i < size; i++) {
      Running r = running.get(i);
      if (r.protocol.receive(r.round, inbox)) {
        if (finished == null) {
          finished = new ArrayList<>();
        }
        finished.add(r);
      } else {
        r.round++;
        running.set(kept++, r);
      }
    }
    inbox.checkFullyRead();
    running.subList(kept, size).clear();
    if (finished != null) {
      for (Running r : finished) {
        if (r.batch != null) {
          r.batch.finish();
        }
      }
    }
  }

  private long runAlone(RoundProtocol protocol) {
    if (protocol.isDone()) {
      return 0;
    }
    List<Running> running = new ArrayList<>(List.of(new Running(protocol, null)));
    long rounds = 0;
    while (!running.isEmpty()) {
      rounds++;
      round(running, rounds);
    }
    return rounds;
  }

  /** A protocol in flight and the round it is in. */
  private static final class Running {
    final RoundProtocol protocol;
    final GateBatch batch; // null for suite checks
    int round;

    Running(RoundProtocol protocol, GateBatch batch) {
      this.protocol = protocol;
      this.batch = batch;
    }

    int elements() {
      return batch == null ? 0 : batch.elements();
    }
  }
}
