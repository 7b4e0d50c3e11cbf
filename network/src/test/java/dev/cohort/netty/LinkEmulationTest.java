package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Secret;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyThreads;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.LoopbackMesh;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TransportChannel;
import dev.cohort.transport.TransportOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The emulated link: added latency per frame and a bandwidth cap, on real loopback sockets. */
@ExtendWith(LeakCheck.class)
class LinkEmulationTest {

  private static TransportOptions shortTimeouts(TransportOptions options) {
    return options
        .withConnectTimeout(Duration.ofSeconds(20))
        .withReceiveTimeout(Duration.ofSeconds(20));
  }

  private static TransportOptions plaintext(LinkEmulation emulation) {
    return shortTimeouts(TransportOptions.plaintextInsecure()).withEmulation(emulation);
  }

  /** Ten rounds with BGW: both inputs, eight multiplications in a chain, an open. */
  private static final Computation<Long> TEN_ROUNDS =
      b -> {
        Secret x = b.input(0, b.myId() == 0 ? 3 : 0, 8);
        Secret y = b.input(1, b.myId() == 1 ? 2 : 0, 8);
        Secret z = x;
        for (int i = 0; i < 8; i++) {
          z = b.mul(z, y);
        }
        return b.open(z);
      };

  @Test
  void engine_fiftyMillisecondLatency_tenRoundsTakeAtLeastHalfASecond() {
    List<Result<Long>> results;
    try (LocalParties parties =
        LocalParties.builder(3)
            .suite(BgwSuite.factory(Fields.MERSENNE_61))
            .config(EngineConfig.defaults().withInsecureSeed(5))
            .mesh(
                Loopback.insecurePlaintext(Transport.NETTY)
                    .with(LinkEmulationTest::shortTimeouts)
                    .withEmulation(LinkEmulation.latency(Duration.ofMillis(50))))
            .standing()
            .open()) {
      parties.run(TEN_ROUNDS); // warm-up: set-up rounds, class loading, JIT
      results = parties.run(TEN_ROUNDS);
    }
    for (Result<Long> r : results) {
      assertEquals(3L * 256, r.value());
      assertEquals(10, r.metrics().rounds());
      assertEquals(0, r.metrics().setupRounds());
      long millis = TimeUnit.NANOSECONDS.toMillis(r.metrics().wallNanos());
      assertTrue(millis >= 500 && millis < 1000, "10 rounds at 50 ms took " + millis + " ms");
    }
  }

  @Test
  void exchange_bandwidthCap_pacesAFrameByItsSize() {
    int words = 25_000; // a 200 kB frame at 1 MB/s: 0.2 s on the wire
    try (LoopbackMesh mesh =
        Loopback.of(
                Transport.NETTY, p -> plaintext(LinkEmulation.NONE.withBytesPerSecond(1_000_000)))
            .bind(2)) {
      List<TransportChannel> transports = PartyThreads.each(2, mesh::connect);
      long start = System.nanoTime();
      List<long[][]> received =
          PartyThreads.each(
              2,
              p -> {
                long[] out = new long[words];
                out[words - 1] = p + 1;
                return transports
                    .get(p)
                    .exchange(new long[][] {out, out}, new int[] {words, words});
              });
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(2, received.get(0)[1][words - 1]);
      assertEquals(1, received.get(1)[0][words - 1]);
      assertTrue(millis >= 190 && millis < 2000, "a 200 kB frame at 1 MB/s took " + millis + " ms");
    }
  }

  @Test
  void close_framesStillDelayed_areReleasedAndNeverSent() {
    EmbeddedChannel channel =
        new EmbeddedChannel(
            new LinkEmulationHandler(LinkEmulation.latency(Duration.ofSeconds(10))));
    ByteBuf frame = Unpooled.directBuffer(16).writeLong(1).writeLong(2);
    ChannelFuture written = channel.writeAndFlush(frame);
    channel.runPendingTasks();
    assertNull(channel.readOutbound(), "held back by the latency");
    channel.close();
    assertEquals(0, frame.refCnt(), "released when the connection closed");
    assertTrue(written.isDone() && !written.isSuccess(), "its write failed");
  }

  @Test
  void emulation_negativeLatency_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> LinkEmulation.latency(Duration.ofMillis(-1)));
    assertEquals("latency (PT-0.001S) must be >= 0", e.getMessage());
  }
}
