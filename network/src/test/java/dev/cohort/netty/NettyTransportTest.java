package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.NetworkException;
import dev.cohort.bgw.BgwConfig;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.harness.PartyThreads;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.LoopbackMesh;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import dev.cohort.testing.RandomCircuit;
import dev.cohort.transport.Allocations;
import dev.cohort.transport.TransportChannel;
import dev.cohort.transport.TransportContractTest;
import dev.cohort.transport.TransportNetwork;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Netty transport on loopback: the {@link TransportContractTest} contract, and what only this
 * transport does (engine runs against the in-memory transport, counted frames, round checks).
 */
@ExtendWith(LeakCheck.class)
class NettyTransportTest extends TransportContractTest {

  NettyTransportTest() {
    super(Transport.NETTY, network -> ((NettyNetwork) network).isReleased());
  }

  /** The event loop reads every frame, the hello included. */
  @Override
  protected LongSupplier readerAllocations(TransportNetwork party, boolean helloSeen)
      throws Exception {
    Thread eventLoop = ((NettyNetwork) party).eventLoop().submit(Thread::currentThread).get();
    return () -> Allocations.of(eventLoop);
  }

  /** The decoder closes the connection as the broken frame arrives, before P1's round leaves. */
  @Override
  protected void assertAnswerToBrokenPeer(Breach breach, byte[] answer) {
    if (breach == Breach.OVERSIZED) {
      assertEquals(20, answer.length, "P1 sent its hello and closed the connection");
    }
  }

  @ParameterizedTest(name = "{0} parties, {1}")
  @CsvSource({
    "3, MERSENNE_61",
    "3, MERSENNE_127",
    "4, MERSENNE_61",
    "4, MERSENNE_127",
    "7, MERSENNE_61",
    "7, MERSENNE_127"
  })
  void randomCircuit_overTls_matchesPlaintextAndInMemory(int parties, String fieldName) {
    long seed = 3000 + parties;
    Field field = fieldName.equals("MERSENNE_61") ? Fields.MERSENNE_61 : Fields.MERSENNE_127;
    RandomCircuit circuit = RandomCircuit.generate(seed, parties, RandomCircuit.Shape.DEFAULT);
    BgwConfig bgw = new BgwConfig(field, (parties - 1) / 2, 64);
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(seed);
    List<Result<BigInteger[]>> results =
        run(parties, keys::options, BgwSuite.factory(bgw), config, circuit.computation());
    assertMatchesPlaintext(circuit, field, results);
    List<Result<BigInteger[]>> inMemory =
        new LocalParties(parties, BgwSuite.factory(bgw), config, Duration.ofSeconds(30))
            .run(circuit.computation());
    for (int p = 0; p < parties; p++) {
      assertArrayEquals(inMemory.get(p).value(), results.get(p).value(), "P" + p);
      assertEquals(inMemory.get(p).metrics().rounds(), results.get(p).metrics().rounds());
    }
  }

  @Test
  void randomCircuit_fourPartiesInsecurePlaintext_matchesPlaintext() {
    long seed = 4001;
    Field field = Fields.MERSENNE_127;
    RandomCircuit circuit = RandomCircuit.generate(seed, 4, RandomCircuit.Shape.DEFAULT);
    List<Result<BigInteger[]>> results =
        run(
            4,
            p -> plaintext(),
            BgwSuite.factory(new BgwConfig(field, 1, 64)),
            EngineConfig.defaults().withInsecureSeed(seed),
            circuit.computation());
    assertMatchesPlaintext(circuit, field, results);
  }

  @Test
  void engine_onePartyFails_othersFailPromptlyNamingIt() {
    Computation<Long> computation =
        b -> b.open(b.mul(b.input(0, 3, 8), b.input(1, b.myId() == 1 ? 1000 : 0, 8)));
    try (LocalParties parties =
        LocalParties.builder(3)
            .suite(BgwSuite.factory(Fields.MERSENNE_61))
            .config(EngineConfig.defaults().withInsecureSeed(7))
            .mesh(
                Loopback.of(
                    Transport.NETTY,
                    p -> keys.options(p).withReceiveTimeout(Duration.ofSeconds(30))))
            .standing()
            .open()) {
      List<InetSocketAddress> addresses = ((LoopbackMesh) parties.mesh()).addresses();
      long start = System.nanoTime();
      List<PartyFailedException> failures =
          assertThrows(PartyFailedException.class, () -> parties.run(computation)).failures();
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "failed promptly");
      assertEquals(3, failures.size());
      assertEquals(1, failures.get(0).party().index(), "the party that failed first is named");
      String p1 = "P1 (127.0.0.1:" + addresses.get(1).getPort() + ")";
      for (PartyFailedException partyFailure : failures) {
        String message = partyFailure.getCause().getMessage();
        if (partyFailure.party().index() == 1) {
          assertTrue(partyFailure.getCause() instanceof IllegalArgumentException, message);
        } else {
          assertTrue(partyFailure.getCause() instanceof NetworkException, message);
          // P1's abort, or the abort of a peer that heard it first: a party waits only for the
          // peers it takes a frame from in the round (a BGW input reaches one party at n = 3).
          assertTrue(
              message.matches(
                  "(P[02] \\(127\\.0\\.0\\.1:\\d+\\) aborted in round \\d+: "
                      + "PeerAbortedException: )?"
                      + java.util.regex.Pattern.quote(p1)
                      + " aborted in round .*"),
              message);
          assertTrue(
              message.contains(": IllegalArgumentException: P1's input at position 0"), message);
        }
      }
    }
  }

  /** What one party received in the first round, and its counts after both. */
  private record Received(long[][] first, TrafficStats stats) {}

  @Test
  void exchange_threeParties_deliversWordsAndCountsWholeFrames() {
    try (LocalParties parties =
        LocalParties.builder(3).mesh(Loopback.of(Transport.NETTY, keys::options)).open()) {
      List<Received> received =
          parties.onChannels(
              (p, channel) -> {
                long[][] out = new long[3][];
                int[] lengths = new int[3];
                for (int q = 0; q < 3; q++) {
                  out[q] = new long[] {10L * p + q, -1L, 99}; // a longer array than sent
                  lengths[q] = q + 1;
                }
                long[][] first = channel.exchange(out, lengths);
                channel.exchange(out, new int[3]); // empty frames are frames too
                return new Received(first, channel.stats());
              });
      for (int p = 0; p < 3; p++) {
        assertNull(received.get(p).first()[p]);
        for (int q = 0; q < 3; q++) {
          if (q != p) {
            long[] expected = java.util.Arrays.copyOf(new long[] {10L * q + p, -1L, 99}, p + 1);
            assertArrayEquals(expected, received.get(p).first()[q], "P" + p + " from P" + q);
            TrafficStats stats = received.get(p).stats();
            assertEquals(2, stats.framesSent[q]);
            assertEquals(2, stats.framesReceived[q]);
            assertEquals(12 + 8L * (q + 1) + 12, stats.bytesSent[q]);
            assertEquals(12 + 8L * (p + 1) + 12, stats.bytesReceived[q]);
          }
        }
      }
    }
  }

  @Test
  void exchange_badLengthsOrOversizedFrame_throwBeforeAnyFrameLeaves() {
    try (LoopbackMesh mesh =
        Loopback.of(Transport.NETTY, p -> plaintext().withMaxFrameBytes(64)).bind(2)) {
      List<TransportChannel> transports = PartyThreads.each(2, mesh::connect);
      Channel t0 = transports.get(0);
      IllegalArgumentException tooLong =
          assertThrows(
              IllegalArgumentException.class,
              () -> t0.exchange(new long[][] {null, {1, 2}}, new int[] {0, 3}));
      assertEquals(
          "length for P1 (3) must be in [0, 2], the words given, or Channel.NO_FRAME",
          tooLong.getMessage());
      IllegalStateException tooLarge =
          assertThrows(
              IllegalStateException.class,
              () -> t0.exchange(new long[][] {null, new long[8]}, new int[] {0, 8}));
      assertEquals(
          "frame of 72 bytes for P1 exceeds the limit of 64 bytes: raise maxFrameBytes or lower"
              + " the engine's batch size",
          tooLarge.getMessage());
      assertEquals(0, t0.stats().totalFramesSent());
      // Nothing was sent, so round 0 is still due and the channel still works.
      List<long[][]> received =
          PartyThreads.each(
              2, p -> transports.get(p).exchange(new long[][] {{5}, {6}}, new int[] {1, 1}));
      assertArrayEquals(new long[] {5}, received.get(0)[1]); // P1's entry for P0
      assertArrayEquals(new long[] {6}, received.get(1)[0]);
    }
  }
}
