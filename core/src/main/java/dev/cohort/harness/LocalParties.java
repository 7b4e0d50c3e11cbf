package dev.cohort.harness;

import dev.cohort.api.Computation;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.SessionsResult;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.suite.SuiteFactory;
import java.time.Duration;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Runs computations on n parties as threads in this JVM and returns every party's result and
 * metrics. Invariant: a run either returns all n results, in party order, or throws one {@link
 * PartyFailedException} naming the first party to fail ({@link PartyThreads}); the others fail
 * promptly because a failing engine aborts its channel.
 *
 * <p>The parties reach each other through a {@link Mesh}: the in-memory transport unless the
 * builder is given another (the network module's {@code Loopback} binds the Netty or the socket
 * transport on loopback, with TLS or INSECURE plain TCP), so a caller switches transport by
 * configuration and keeps everything else. Two lifetimes:
 *
 * <ul>
 *   <li>one-shot (the default): every run binds a fresh mesh, connects it, gives every party a
 *       fresh engine and closes it all again; runs are independent, as if each were the first;
 *   <li>{@linkplain Builder#standing() standing}: the mesh is connected once, each party's engine
 *       and thread live until {@link #close}, and P0 runs on the caller's thread; later runs reuse
 *       the engines' set-up, as a benchmark wants.
 * </ul>
 *
 * <p>Used by tests, benchmarks and the demos that keep every party in one process; a deployment
 * runs one party per process instead.
 */
public final class LocalParties implements AutoCloseable {

  /** The in-memory transport's receive timeout when the builder is given no mesh. */
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /** What one party does with its engine. */
  @FunctionalInterface
  public interface EngineTask<R> {
    R run(int party, Engine engine) throws Exception;
  }

  /** What one party does with its channel, without an engine (a transport's own rounds). */
  @FunctionalInterface
  public interface ChannelTask<R> {
    R run(int party, Channel channel) throws Exception;
  }

  private final int parties;
  private final IntFunction<SuiteFactory> suites; // null: channels only
  private final IntFunction<EngineConfig> configs;
  private final Mesh.Factory meshes;
  private final PartyThreads threads;
  private final Mesh mesh; // standing: the one mesh; null: one-shot
  private final Channel[] channels; // standing
  private final Engine[] engines; // standing, when there is a suite
  private boolean closed;

  /**
   * One-shot parties over the in-memory transport, where a peer silent for {@code timeout} is named
   * and a run waits at most twice that.
   */
  public LocalParties(int parties, SuiteFactory suite, EngineConfig config, Duration timeout) {
    this(
        builder(parties)
            .suite(suite)
            .config(config)
            .mesh(Mesh.inMemory(timeout))
            .deadline(timeout.multipliedBy(2)));
  }

  private LocalParties(Builder b) {
    this.parties = b.parties;
    this.suites = b.suites;
    this.configs = b.configs;
    this.meshes = b.mesh;
    if (suites != null) {
      for (int p = 0; p < parties; p++) {
        suites.apply(p).validate(parties);
      }
    }
    if (!b.standing) {
      threads = PartyThreads.oneShot(parties, b.deadline);
      mesh = null;
      channels = null;
      engines = null;
      return;
    }
    threads = PartyThreads.standing(parties, b.deadline);
    channels = new Channel[parties];
    engines = new Engine[parties];
    Mesh bound = null;
    try {
      bound = meshes.bind(parties);
      Mesh connecting = bound;
      threads.run(
          p -> {
            channels[p] = new RankingChannel(connecting.connect(p), p, threads);
            if (suites != null) {
              engines[p] = new Engine(suites.apply(p), channels[p], configs.apply(p));
            }
            return null;
          });
    } catch (RuntimeException | Error e) {
      closeStanding(bound);
      throw e;
    }
    mesh = bound;
  }

  /** Parties configured step by step; {@link Builder#open} starts them. */
  public static Builder builder(int parties) {
    return new Builder(parties);
  }

  public int parties() {
    return parties;
  }

  /**
   * The mesh of standing parties, for what only its transport knows (a {@code LoopbackMesh}'s
   * addresses); one-shot parties bind a fresh one per run and have none.
   */
  public Mesh mesh() {
    if (mesh == null) {
      throw new IllegalStateException("one-shot parties bind a fresh mesh for every run");
    }
    return mesh;
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
    return onEngines((party, engine) -> engine.run(computations.apply(party)));
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
    return onEngines((party, engine) -> engine.runSessions(sessions.apply(party), parallelism));
  }

  /** Party {@code i} runs {@code task} with its engine (a fresh one unless standing). */
  public <R> List<R> onEngines(EngineTask<R> task) {
    requireOpen();
    if (suites == null) {
      throw new IllegalStateException("these parties have no suite: give the builder one");
    }
    if (mesh != null) {
      return threads.run(p -> task.run(p, engines[p]));
    }
    return onChannels(
        (p, channel) -> task.run(p, new Engine(suites.apply(p), channel, configs.apply(p))));
  }

  /** Party {@code i} runs {@code task} with its channel (connected afresh unless standing). */
  public <R> List<R> onChannels(ChannelTask<R> task) {
    requireOpen();
    if (mesh != null) {
      return threads.run(p -> task.run(p, channels[p]));
    }
    try (Mesh fresh = meshes.bind(parties)) {
      return threads.run(
          p -> {
            try (Channel channel = new RankingChannel(fresh.connect(p), p, threads)) {
              return task.run(p, channel);
            }
          });
    }
  }

  private void requireOpen() {
    if (closed) {
      throw new IllegalStateException("these parties are closed");
    }
  }

  /**
   * Closes the channels, the mesh and what the mesh factory holds (generated keys), and stops the
   * standing threads.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (mesh != null) {
      closeStanding(mesh);
    } else {
      try {
        threads.close();
      } finally {
        meshes.close();
      }
    }
  }

  private void closeStanding(Mesh bound) {
    try {
      for (Channel channel : channels) {
        if (channel != null) {
          channel.close();
        }
      }
      if (bound != null) {
        bound.close();
      }
    } finally {
      try {
        threads.close();
      } finally {
        meshes.close();
      }
    }
  }

  /** How to run n parties; {@link #open} starts them. */
  public static final class Builder {
    private final int parties;
    private IntFunction<SuiteFactory> suites;
    private IntFunction<EngineConfig> configs = p -> EngineConfig.defaults();
    private Mesh.Factory mesh = Mesh.inMemory(DEFAULT_TIMEOUT);
    private Duration deadline;
    private boolean standing;

    private Builder(int parties) {
      if (parties < 1) {
        throw new IllegalArgumentException("parties (" + parties + ") must be >= 1");
      }
      this.parties = parties;
    }

    /** Every party's suite (parties without one run only {@link #onChannels} tasks). */
    public Builder suite(SuiteFactory suite) {
      return suites(p -> suite);
    }

    /** Party {@code p}'s suite is {@code suites.apply(p)}: a corrupt party's, say. */
    public Builder suites(IntFunction<SuiteFactory> suites) {
      this.suites = suites;
      return this;
    }

    /** Every party's engine configuration (default: {@link EngineConfig#defaults()}). */
    public Builder config(EngineConfig config) {
      return configs(p -> config);
    }

    /** Party {@code p}'s engine configuration is {@code configs.apply(p)}. */
    public Builder configs(IntFunction<EngineConfig> configs) {
      this.configs = configs;
      return this;
    }

    /**
     * How the parties connect (default: in memory, naming a peer silent for 60 s); the parties own
     * the factory from {@link #open} on and close it with themselves.
     */
    public Builder mesh(Mesh.Factory mesh) {
      this.mesh = mesh;
      return this;
    }

    /** A run that has not ended after {@code deadline} fails naming the parties still running. */
    public Builder deadline(Duration deadline) {
      this.deadline = deadline;
      return this;
    }

    /** Connect once and keep engines and threads across runs, until {@link LocalParties#close}. */
    public Builder standing() {
      this.standing = true;
      return this;
    }

    /** Starts the parties; standing parties are connected when this returns. */
    public LocalParties open() {
      try {
        return new LocalParties(this);
      } catch (RuntimeException | Error e) {
        mesh.close();
        throw e;
      }
    }
  }

  /** A channel that ranks its party's failure when it aborts, before the peers learn of it. */
  private static final class RankingChannel implements Channel {
    private final Channel channel;
    private final int party;
    private final PartyThreads threads;

    RankingChannel(Channel channel, int party, PartyThreads threads) {
      this.channel = channel;
      this.party = party;
      this.threads = threads;
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
    public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
      return channel.exchange(outgoing, lengths, receive);
    }

    @Override
    public TrafficStats stats() {
      return channel.stats();
    }

    @Override
    public void abort(String reason) {
      threads.failing(party);
      channel.abort(reason);
    }

    @Override
    public void close() {
      channel.close();
    }
  }
}
