package dev.cohort.netty;

import dev.cohort.api.Computation;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.transport.Parties;
import dev.cohort.transport.TransportOptions;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Test harness: n parties as threads, each with its own {@link NettyNetwork} on loopback (port 0),
 * connected as a real mesh; {@link Parties#each} runs them.
 */
public final class NettyParties {

  /** The name of every event-loop thread of the Netty transport starts with this. */
  static final String EVENT_LOOP_PREFIX = "cohort-netty-";

  private NettyParties() {}

  /** Live threads of the parties' event loops, by name. */
  static long eventLoopThreads() {
    return Parties.threads(EVENT_LOOP_PREFIX);
  }

  /** Binds every party on 127.0.0.1:0; the caller connects them. */
  static List<NettyNetwork> bind(int parties, IntFunction<TransportOptions> options) {
    return Parties.bind(parties, options, NettyNetwork::bind);
  }

  /** Binds and connects every party, in parallel; returns the transports in party order. */
  static List<NettyTransport> connect(int parties, IntFunction<TransportOptions> options) {
    return Parties.connect(parties, options, NettyNetwork::bind, NettyNetwork::connect);
  }

  /** Party {@code p} runs {@code computation} through an engine over its Netty transport. */
  static <T> List<Result<T>> run(
      int parties,
      IntFunction<TransportOptions> options,
      SuiteFactory suite,
      EngineConfig config,
      Computation<T> computation) {
    return Parties.run(parties, options, NettyNetwork::bind, suite, config, computation);
  }
}
