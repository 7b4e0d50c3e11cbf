package dev.cohort.bench;

import dev.cohort.harness.PartyThreads;
import dk.alexandra.fresco.framework.Application;
import dk.alexandra.fresco.framework.Party;
import dk.alexandra.fresco.framework.builder.numeric.ProtocolBuilderNumeric;
import dk.alexandra.fresco.framework.builder.numeric.field.FieldDefinition;
import dk.alexandra.fresco.framework.builder.numeric.field.MersennePrimeFieldDefinition;
import dk.alexandra.fresco.framework.configuration.NetworkConfigurationImpl;
import dk.alexandra.fresco.framework.network.socket.SocketNetwork;
import dk.alexandra.fresco.framework.sce.SecureComputationEngine;
import dk.alexandra.fresco.framework.sce.SecureComputationEngineImpl;
import dk.alexandra.fresco.framework.sce.evaluator.BatchedProtocolEvaluator;
import dk.alexandra.fresco.framework.sce.evaluator.EvaluationStrategy;
import dk.alexandra.fresco.framework.sce.resources.ResourcePool;
import dk.alexandra.fresco.framework.util.AesCtrDrbg;
import dk.alexandra.fresco.suite.ProtocolSuiteNumeric;
import dk.alexandra.fresco.suite.dummy.arithmetic.DummyArithmeticProtocolSuite;
import dk.alexandra.fresco.suite.dummy.arithmetic.DummyArithmeticResourcePoolImpl;
import dk.alexandra.fresco.suite.spdz.SpdzProtocolSuite;
import dk.alexandra.fresco.suite.spdz.SpdzResourcePoolImpl;
import dk.alexandra.fresco.suite.spdz.storage.SpdzDummyDataSupplier;
import dk.alexandra.fresco.suite.spdz.storage.SpdzOpenedValueStoreImpl;
import java.io.IOException;
import java.math.BigInteger;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * FRESCO 1.3.4 parties for the baseline: n parties as threads in one JVM, each with its own engine,
 * wired as FRESCO's own tests wire them: its {@link SocketNetwork} on loopback, the {@link
 * BatchedProtocolEvaluator} with the sequential batched strategy, and either the SPDZ suite with
 * its dummy preprocessing ({@link SpdzDummyDataSupplier}) or the dummy arithmetic suite. Parties,
 * networks and threads live for the whole trial, like Cohort's engines in the other benchmarks, and
 * run on the same threads ({@link PartyThreads#standing}): party 1 waits for its engine on the
 * caller's thread, every other party on a thread of its own.
 *
 * <p>FRESCO numbers its parties from 1; party 1 here plays Cohort's P0 (the server), and a failure
 * names it as P0.
 */
final class FrescoBaselineParties implements AutoCloseable {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  private final int parties;
  private final int maxBitLength;
  private final List<SecureComputationEngine<ResourcePool, ProtocolBuilderNumeric>> engines =
      new ArrayList<>();
  private final List<ResourcePool> pools = new ArrayList<>();
  private final List<SocketNetwork> networks;
  private final PartyThreads threads;

  /**
   * @param suite {@code spdz} or {@code dummy}
   * @param bits the field: FRESCO's pseudo-Mersenne prime 2^bits - c of this length, its fastest
   *     field (it offers 8, 16, ..., 512 bits: 2^64 - 59 stands for Cohort's 2^61 - 1)
   */
  FrescoBaselineParties(String suite, int parties, int bits) {
    this(suite, parties, bits, bits);
  }

  /**
   * @param maxBitLength the largest values the suite's comparisons expect (FRESCO's {@code
   *     maxBitLength}); the other constructor uses the field's length
   */
  FrescoBaselineParties(String suite, int parties, int bits, int maxBitLength) {
    this.parties = parties;
    this.maxBitLength = maxBitLength;
    FieldDefinition field = MersennePrimeFieldDefinition.find(bits);
    threads = PartyThreads.standing(parties, TIMEOUT);
    int[] ports = freePorts(parties);
    Map<Integer, Party> all = new HashMap<>();
    for (int id = 1; id <= parties; id++) {
      all.put(id, new Party(id, "localhost", ports[id - 1]));
    }
    // The socket network connects in its constructor, so every party must connect at once.
    networks = threads.run(i -> new SocketNetwork(new NetworkConfigurationImpl(i + 1, all)));
    for (int id = 1; id <= parties; id++) {
      engines.add(engine(suite, field));
      pools.add(pool(suite, id, field));
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private SecureComputationEngine<ResourcePool, ProtocolBuilderNumeric> engine(
      String suite, FieldDefinition field) {
    ProtocolSuiteNumeric protocolSuite =
        switch (suite) {
          case "spdz" -> new SpdzProtocolSuite(maxBitLength);
          case "dummy" -> new DummyArithmeticProtocolSuite(field, maxBitLength, 0);
          default -> throw new IllegalArgumentException("unknown FRESCO suite " + suite);
        };
    BatchedProtocolEvaluator evaluator =
        new BatchedProtocolEvaluator<>(
            EvaluationStrategy.SEQUENTIAL_BATCHED.getStrategy(), protocolSuite);
    return new SecureComputationEngineImpl<>(protocolSuite, evaluator);
  }

  private ResourcePool pool(String suite, int id, FieldDefinition field) {
    if (suite.equals("dummy")) {
      return new DummyArithmeticResourcePoolImpl(id, parties, field);
    }
    // INSECURE dummy preprocessing with a fixed MAC key: FRESCO's own test set-up.
    BigInteger macKey = BigInteger.valueOf(0x5EED_5EEDL).mod(field.getModulus());
    return new SpdzResourcePoolImpl(
        id,
        parties,
        new SpdzOpenedValueStoreImpl(),
        new SpdzDummyDataSupplier(id, parties, field, macKey),
        AesCtrDrbg::new);
  }

  /** Runs {@code app.apply(id)} on every party (ids from 1); returns every party's output. */
  <T> List<T> run(IntFunction<Application<T, ProtocolBuilderNumeric>> app) {
    return threads.run(
        i ->
            engines
                .get(i)
                .runApplication(app.apply(i + 1), pools.get(i), networks.get(i), TIMEOUT));
  }

  static int[] freePorts(int count) {
    int[] ports = new int[count];
    List<ServerSocket> held = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        ServerSocket s = new ServerSocket(0);
        held.add(s);
        ports[i] = s.getLocalPort();
      }
      for (ServerSocket s : held) {
        s.close();
      }
    } catch (IOException e) {
      throw new IllegalStateException("no free loopback port for FRESCO", e);
    }
    return ports;
  }

  @Override
  public void close() {
    for (SecureComputationEngine<?, ?> engine : engines) {
      engine.close();
    }
    for (SocketNetwork network : networks) {
      network.close();
    }
    threads.close();
  }
}
