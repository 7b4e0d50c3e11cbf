package dev.cohort.engine;

import dev.cohort.api.Computation;
import dev.cohort.api.PartyId;
import dev.cohort.gate.GateBatch;
import dev.cohort.gate.Graph;
import dev.cohort.gate.SessionScheduler;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.producer.Lanes;
import dev.cohort.random.Prg;
import dev.cohort.suite.AllOf;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.SessionGroups;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One party's engine: evaluates computations round by round over a {@link Channel}.
 *
 * <p>Each round it asks the graph for the interactive gates that are ready (up to the batch size in
 * flight), lets every running protocol write its messages, exchanges at most one frame per peer
 * (none on a link that no running protocol uses in the round), and lets every protocol read. Local
 * gates run in between, cost no round and never end a batch; a gate that becomes ready joins the
 * very next round.
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
  private final boolean[] sends; // the links of the round that carry a frame (planLinks)
  private final boolean[] receives;
  private final SortedMap<String, String> agreed; // what every party must agree on
  private boolean setUp;
  private boolean failed;
  private final SessionGroups sessionGroups; // with config.groups() > 1: the party's suites
  private GroupedChannel grouped; // with config.groups() > 1, at the first run in groups
  private Engine[] groupEngines;
  private ExecutorService groupThreads; // groups 1.. (group 0 runs on the caller's thread)

  public Engine(SuiteFactory factory, Channel channel, EngineConfig config) {
    this(factory, channel, config, config.groups());
  }

  /** An engine whose set-up agrees on {@code groupsAgreed} session groups (a group's engine). */
  private Engine(SuiteFactory factory, Channel channel, EngineConfig config, int groupsAgreed) {
    factory.validate(channel.parties());
    if (config.groups() > 1 && !factory.runsInGroups()) {
      throw new IllegalArgumentException(
          factory.name()
              + " cannot run sessions in groups (its suites would share material that must not be"
              + " used twice): use 1 group, or threads inside the suite");
    }
    Prg prg =
        config.insecureSeed() == null
            ? Prg.secure()
            : Prg.seeded(config.insecureSeed() * 1_000_003L + channel.myId());
    // one SessionGroups per engine: what its suites share (SPDZ's material) they share alone
    this.sessionGroups = config.groups() > 1 ? factory.groups(config.groups()) : null;
    SuiteFactory own = sessionGroups == null ? factory : sessionGroups.whole();
    this.suite = own.create(channel.myId(), channel.parties(), prg);
    // what must agree; not factory.name(), which may hold per-party details such as file paths
    TreeMap<String, String> agreed = new TreeMap<>(config.agreed());
    agreed.put("suite", suite.getClass().getSimpleName());
    agreed.put("field", suite.field().name());
    agreed.put("parties", String.valueOf(channel.parties()));
    agreed.put("batch size", String.valueOf(config.batchSize()));
    agreed.put("session groups", String.valueOf(groupsAgreed));
    this.agreed = agreed;
    this.channel = channel;
    this.config = config;
    this.outbox = new Outbox(channel.myId(), channel.parties());
    this.inbox = new Inbox(channel.parties());
    this.buffers = new long[channel.parties()][];
    this.lengths = new int[channel.parties()];
    this.sends = new boolean[channel.parties()];
    this.receives = new boolean[channel.parties()];
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
   * <p>With {@link EngineConfig#groups} = G > 1 the sessions are cut into k = min(G, parallelism,
   * sessions) contiguous groups, each run by an engine of its own (its own suite, set-up and
   * randomness) on its own thread, the parallelism shared out among them; their rounds share this
   * channel's rounds ({@link GroupedChannel}), so a party uses k cores for the sessions' local work
   * and each round is still one frame per peer. Each group keeps up to the batch size in flight.
   * The groups' suites, and this engine's own, come from one {@link SessionGroups} of the factory
   * ({@link SuiteFactory#groups}), told before each run how many groups take part: so suites that
   * share a store of material (SPDZ) draw disjoint parts of it.
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
    int k = Math.min(config.groups(), Math.min(parallelism, sessions.size()));
    if (k > 1) {
      return runInGroups(sessions, parallelism, k);
    }
    return execute(sessions, parallelism, true);
  }

  private <T> SessionsResult<T> runInGroups(
      List<? extends Computation<T>> sessions, int parallelism, int k) {
    if (failed) {
      throw new IllegalStateException("this engine failed in an earlier run; create a new one");
    }
    if (grouped == null) {
      grouped = new GroupedChannel(channel, config.groups());
      groupEngines = new Engine[config.groups()];
      for (int g = 0; g < groupEngines.length; g++) {
        Long seed = config.insecureSeed();
        EngineConfig c =
            new EngineConfig(
                config.batchSize(),
                seed == null ? null : seed * 1_000_033L + g + 1,
                config.agreed(),
                1);
        groupEngines[g] = new Engine(sessionGroups.group(g), grouped.group(g), c, config.groups());
      }
      groupThreads = groupThreads(channel.myId(), config.groups() - 1);
    }
    long start = System.nanoTime();
    TrafficStats before = channel.stats().copy();
    int n = sessions.size();
    int[] from = new int[k + 1];
    for (int g = 0; g < k; g++) {
      from[g + 1] = from[g] + n / k + (g < n % k ? 1 : 0);
    }
    List<SessionsResult<T>> results = new ArrayList<>(Collections.nCopies(k, null));
    Throwable[] errors = new Throwable[k];
    sessionGroups.beforeRun(k);
    grouped.open(k);
    List<Future<?>> others = new ArrayList<>();
    for (int g = k - 1; g >= 0; g--) {
      int group = g;
      int share = parallelism / k + (g < parallelism % k ? 1 : 0);
      Runnable run =
          () -> {
            try {
              results.set(
                  group,
                  groupEngines[group].runSessions(
                      sessions.subList(from[group], from[group + 1]), share));
            } catch (RuntimeException | Error e) {
              errors[group] = e;
            }
            try {
              // the last group to leave may complete the others' round, and that may fail
              grouped.leave(group);
            } catch (RuntimeException e) {
              if (errors[group] == null) {
                errors[group] = e;
              }
            }
          };
      if (g > 0) {
        others.add(groupThreads.submit(run));
      } else {
        run.run();
      }
    }
    awaitAll(others);
    Throwable root = rootFailure(errors, from);
    if (root != null) {
      failed = true;
      if (root instanceof RuntimeException e) {
        throw e;
      }
      throw (Error) root;
    }
    return merge(results, channel.stats().since(before), System.nanoTime() - start);
  }

  /** Threads for groups 1 to {@code count}, kept while in use and ended after a minute idle. */
  private static ExecutorService groupThreads(int party, int count) {
    AtomicInteger next = new AtomicInteger(1);
    ThreadPoolExecutor pool =
        new ThreadPoolExecutor(
            count,
            count,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "cohort-P" + party + "-group-" + next.getAndIncrement());
              t.setDaemon(true);
              return t;
            });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  private static void awaitAll(List<Future<?>> runs) {
    boolean interrupted = false;
    for (Future<?> f : runs) {
      while (true) {
        try {
          f.get();
          break;
        } catch (InterruptedException e) {
          interrupted = true; // the groups end by themselves: their rounds fail or finish
        } catch (ExecutionException e) {
          break; // cannot happen: a group's run keeps its failure in errors
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * The failure to report: the group that failed first (the others only heard of it), with a failed
   * session's index counted in the whole list.
   */
  private Throwable rootFailure(Throwable[] errors, int[] from) {
    RuntimeException shared = grouped.failure();
    int first = -1;
    for (int g = 0; g < errors.length; g++) {
      if (errors[g] != null && first < 0) {
        first = g;
      }
      if (errors[g] != null
          && !(errors[g] == shared && shared instanceof GroupedChannel.GroupAbort)) {
        first = g;
        break;
      }
    }
    if (first < 0) {
      return null;
    }
    Throwable e = errors[first];
    if (e instanceof SessionFailedException s) {
      return new SessionFailedException(s.session() + from[first], s.getCause());
    }
    return e;
  }

  private <T> SessionsResult<T> merge(
      List<SessionsResult<T>> results, TrafficStats traffic, long wallNanos) {
    List<T> values = new ArrayList<>();
    long rounds = 0;
    long setupRounds = 0;
    Map<String, Long> gates = new TreeMap<>();
    Map<String, Long> elements = new TreeMap<>();
    Map<String, Long> batches = new TreeMap<>();
    long localGates = 0;
    long waited = 0;
    for (SessionsResult<T> r : results) {
      values.addAll(r.values());
      RunMetrics m = r.metrics();
      rounds = Math.max(rounds, m.rounds()); // the groups' rounds are the same exchanges
      setupRounds = Math.max(setupRounds, m.setupRounds());
      m.gates().forEach((kind, c) -> gates.merge(kind, c, Long::sum));
      m.elements().forEach((kind, c) -> elements.merge(kind, c, Long::sum));
      m.batches().forEach((kind, c) -> batches.merge(kind, c, Long::sum));
      localGates += m.localGates();
      waited += m.materialWaitNanos();
    }
    RunMetrics metrics =
        new RunMetrics(
            channel.myId(),
            rounds,
            setupRounds,
            gates,
            elements,
            batches,
            localGates,
            traffic.bytesSent,
            traffic.framesSent,
            wallNanos,
            waited);
    return new SessionsResult<>(values, metrics);
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
        new SessionScheduler<>(graph, sessions, parallelism, new Lanes());
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
    planLinks(running);
    for (int p = 0; p < lengths.length; p++) {
      buffers[p] = outbox.buffer(p);
      lengths[p] = sends[p] ? outbox.length(p) : Channel.NO_FRAME;
    }
    inbox.reset((int) roundIndex, channel.exchange(buffers, lengths, receives));
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

  /**
   * Which links of the round carry a frame: those that some running protocol sends on or reads from
   * ({@link RoundProtocol#sendsTo}, {@link RoundProtocol#receivesFrom}); every party decides alike,
   * since they run the same protocols in the same rounds. A protocol that wrote to a peer it
   * declared it sends nothing is a bug in the protocol, refused here before anything leaves.
   */
  private void planLinks(List<Running> running) {
    int self = channel.myId();
    for (int p = 0; p < sends.length; p++) {
      boolean send = false;
      boolean receive = false;
      for (int i = 0; i < running.size() && (!send || !receive) && p != self; i++) {
        Running r = running.get(i);
        send = send || r.protocol.sendsTo(r.round, p);
        receive = receive || r.protocol.receivesFrom(r.round, p);
      }
      if (p != self && !send && outbox.length(p) > 0) {
        throw new IllegalStateException(
            "a protocol wrote "
                + outbox.length(p)
                + " words to "
                + PartyId.of(p)
                + " in a round whose protocols all declared they send it nothing");
      }
      sends[p] = send;
      receives[p] = receive;
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
