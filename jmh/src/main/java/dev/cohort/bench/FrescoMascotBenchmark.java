package dev.cohort.bench;

import dev.cohort.harness.PartyThreads;
import dk.alexandra.fresco.framework.Party;
import dk.alexandra.fresco.framework.builder.numeric.field.FieldDefinition;
import dk.alexandra.fresco.framework.builder.numeric.field.FieldElement;
import dk.alexandra.fresco.framework.builder.numeric.field.MersennePrimeFieldDefinition;
import dk.alexandra.fresco.framework.configuration.NetworkConfigurationImpl;
import dk.alexandra.fresco.framework.network.socket.SocketNetwork;
import dk.alexandra.fresco.framework.util.AesCtrDrbg;
import dk.alexandra.fresco.framework.util.Drbg;
import dk.alexandra.fresco.tools.mascot.Mascot;
import dk.alexandra.fresco.tools.mascot.MascotResourcePoolImpl;
import dk.alexandra.fresco.tools.mascot.MascotSecurityParameters;
import dk.alexandra.fresco.tools.mascot.field.MultiplicationTriple;
import dk.alexandra.fresco.tools.ot.base.BouncyCastleNaorPinkas;
import dk.alexandra.fresco.tools.ot.base.Ot;
import dk.alexandra.fresco.tools.ot.otextension.RotList;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * FRESCO 1.3.4's MASCOT ({@code dk.alexandra.fresco:mascot}) beside Cohort's {@link
 * MascotBenchmark}: {@code parties} parties as threads in one JVM, each with its own {@link Mascot}
 * over 2^128 − 173 ({@code MersennePrimeFieldDefinition.find(128)}, FRESCO's field nearest to
 * Cohort's 2^127 − 1: FRESCO's MASCOT serializes elements as bitLength / 8 bytes and fails on a
 * 127-bit modulus), make {@value #BATCH} triples per invocation with one {@code getTriples}
 * (Cohort's make theirs with one {@code triples(n)}, but more per call). The score is triples per
 * second.
 *
 * <p>Set up as FRESCO's own MASCOT supplier and tests set it up: one {@link SocketNetwork} per
 * party on loopback (FRESCO has no TLS: its network is plain TCP, where Cohort's row is over TLS
 * 1.3), for every peer 256 seed OTs in each direction by Naor–Pinkas on curve25519 ({@link
 * BouncyCastleNaorPinkas}, on the BouncyCastle 1.86 of the shaded jar) over that network, the lower
 * id sending first, and MASCOT's default security parameters (τ = 3 candidates per triple, 256-bit
 * PRG seeds, which are also the width of its KOS extension, λ = 64); each party draws its MAC key
 * share uniformly. Seed OTs, the coin toss of the joint seed and the OT extension's set-up run in
 * the trial's set-up.
 *
 * <p>Each party's network is wrapped to count the payload bytes it sends to each peer (FRESCO's
 * socket framing not included); the tear-down prints each party's bytes per triple to each peer
 * over every invocation of the trial (warm-up included, set-up not), as {@link MascotBenchmark}
 * does for Cohort's.
 *
 * <p>Run beside Cohort's: {@code java -jar jmh/target/benchmarks.jar
 * 'MascotBenchmark|FrescoMascotBenchmark' -p parties=2,3 -p ots=kos -p transport=tls}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx6g"})
public class FrescoMascotBenchmark {

  /**
   * Triples per invocation: fewer than Cohort's {@value MascotBenchmark#BATCH}, since FRESCO's
   * MASCOT makes a few dozen triples per second here (a call of 10,000 took over 8 minutes on a
   * loaded machine), so that an iteration takes seconds; MASCOT's per-call costs (coin tosses,
   * checks) are small beside 256 triples' Gilboa and COPE work. FRESCO's own supplier asks for 16
   * at a time.
   */
  static final int BATCH = 256;

  /** The parties' MASCOT instances, networks and threads, alive for the whole trial. */
  @State(Scope.Benchmark)
  public static class Parties {

    @Param({"2", "3"})
    public int parties;

    PartyThreads threads;
    SocketNetwork[] sockets;
    CountingNetwork[] networks;
    Mascot[] mascots;
    long triples;

    @Setup(Level.Trial)
    public void setUp() {
      FieldDefinition field = MersennePrimeFieldDefinition.find(128);
      threads = PartyThreads.standing(parties, Duration.ofMinutes(10));
      int[] ports = FrescoBaselineParties.freePorts(parties);
      Map<Integer, Party> all = new HashMap<>();
      for (int id = 1; id <= parties; id++) {
        all.put(id, new Party(id, "localhost", ports[id - 1]));
      }
      sockets = new SocketNetwork[parties];
      networks = new CountingNetwork[parties];
      mascots = new Mascot[parties];
      // FRESCO numbers parties from 1; its socket network connects in its constructor.
      threads.run(
          i -> {
            int id = i + 1;
            sockets[i] = new SocketNetwork(new NetworkConfigurationImpl(id, all));
            networks[i] = new CountingNetwork(sockets[i], id);
            mascots[i] = mascot(id, field, networks[i]);
            networks[i].reset();
            return null;
          });
      triples = 0;
    }

    /** Party {@code id}'s MASCOT: seed OTs with every peer, then the instance. */
    private Mascot mascot(int id, FieldDefinition field, CountingNetwork network) {
      MascotSecurityParameters security = new MascotSecurityParameters();
      Drbg drbg = new AesCtrDrbg(); // seeded from SecureRandom
      Map<Integer, RotList> seedOts = new HashMap<>();
      for (int other = 1; other <= parties; other++) {
        if (other == id) {
          continue;
        }
        Ot ot = new BouncyCastleNaorPinkas(other, drbg, network);
        RotList list = new RotList(drbg, security.getPrgSeedLength());
        if (id < other) {
          list.send(ot);
          list.receive(ot);
        } else {
          list.receive(ot);
          list.send(ot);
        }
        seedOts.put(other, list);
      }
      MascotResourcePoolImpl pool =
          new MascotResourcePoolImpl(id, parties, 1, drbg, seedOts, security, field);
      FieldElement macKeyShare =
          field.createElement(new BigInteger(256, new SecureRandom()).mod(field.getModulus()));
      return new Mascot(pool, network, macKeyShare);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      System.out.println();
      for (int i = 0; i < parties; i++) {
        System.out.println(
            "FRESCO MASCOT parties="
                + parties
                + ": P"
                + i
                + " payload bytes per triple to each peer (by FRESCO id): "
                + networks[i].perTriple(triples));
      }
      for (SocketNetwork s : sockets) {
        s.close();
      }
      threads.close();
    }
  }

  /** {@value #BATCH} triples at every party. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public List<List<MultiplicationTriple>> triples(Parties s) {
    List<List<MultiplicationTriple>> r = s.threads.run(p -> s.mascots[p].getTriples(BATCH));
    s.triples += BATCH;
    return r;
  }
}
