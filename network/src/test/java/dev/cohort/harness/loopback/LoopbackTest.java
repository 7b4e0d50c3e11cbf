package dev.cohort.harness.loopback;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.LiveThreads;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The harness over real transports on loopback: both transports, with generated TLS keys or plain
 * TCP, one-shot and standing, and a close that leaves no thread, listener or key file behind.
 */
class LoopbackTest {

  /** P0 inputs 6, P1 inputs 7; a multiplication and an open, so every party talks to every one. */
  private static final Computation<Long> PRODUCT =
      b ->
          b.open(b.mul(b.input(0, b.myId() == 0 ? 6 : 0, 8), b.input(1, b.myId() == 1 ? 7 : 0, 8)));

  private static LocalParties.Builder bgw(Loopback loopback) {
    return LocalParties.builder(3)
        .suite(BgwSuite.factory(Fields.MERSENNE_61))
        .config(EngineConfig.defaults().withInsecureSeed(9))
        .mesh(loopback)
        .deadline(Duration.ofSeconds(60));
  }

  private static String threadPrefix(Transport transport) {
    return transport == Transport.NETTY ? "cohort-netty-" : "cohort-socket-";
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void standing_generatedTls_runsTwiceThenReleasesEverything(Transport transport) throws Exception {
    long transportThreads = LiveThreads.count(threadPrefix(transport));
    Loopback loopback = Loopback.tls(transport);
    List<InetSocketAddress> addresses;
    List<Thread> partyThreads;
    try (LocalParties parties = bgw(loopback).standing().open()) {
      Path keys = loopback.generatedKeys();
      assertNotNull(keys, "keys are generated for the parties");
      assertTrue(Files.exists(keys.resolve("party-2-key.pem")), "for every party");
      addresses = ((LoopbackMesh) parties.mesh()).addresses();
      List<Result<Long>> first = parties.run(PRODUCT);
      List<Result<Long>> second = parties.run(PRODUCT);
      for (int p = 0; p < 3; p++) {
        assertEquals(42L, first.get(p).value());
        assertEquals(42L, second.get(p).value());
        assertEquals(0, second.get(p).metrics().setupRounds(), "the engines' set-up is kept");
      }
      partyThreads = parties.onChannels((p, channel) -> Thread.currentThread());
      parties.close();
      assertFalse(Files.exists(keys), "close deletes the generated keys");
    }
    for (InetSocketAddress address : addresses) {
      assertRefused(address);
    }
    for (Thread t : partyThreads.subList(1, 3)) {
      t.join(5000);
      assertFalse(t.isAlive(), t.getName() + " stopped");
    }
    long left = LiveThreads.awaitAtMost(threadPrefix(transport), transportThreads);
    assertTrue(left <= transportThreads, (left - transportThreads) + " transport threads left");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void oneShot_insecurePlaintext_everyRunConnectsAfresh(Transport transport) throws Exception {
    long transportThreads = LiveThreads.count(threadPrefix(transport));
    Loopback loopback = Loopback.insecurePlaintext(transport);
    try (LocalParties parties = bgw(loopback).open()) {
      for (int run = 0; run < 2; run++) {
        List<Result<Long>> results = parties.run(PRODUCT);
        for (Result<Long> r : results) {
          assertEquals(42L, r.value());
          assertTrue(r.metrics().setupRounds() > 0, "a fresh engine sets up again");
        }
        long left = LiveThreads.awaitAtMost(threadPrefix(transport), transportThreads);
        assertTrue(left <= transportThreads, "run " + run + " left " + left + " threads");
      }
      assertNull(loopback.generatedKeys(), "plain TCP needs no keys");
    }
  }

  @Test
  void oneShot_generatedTls_keysOnceForEveryRunDeletedOnClose() {
    Loopback loopback = Loopback.tls(Transport.NETTY);
    Path keys;
    try (LocalParties parties = bgw(loopback).open()) {
      parties.run(PRODUCT);
      keys = loopback.generatedKeys();
      assertEquals(42L, parties.run(PRODUCT).get(0).value());
      assertSame(keys, loopback.generatedKeys());
    }
    assertFalse(Files.exists(keys), "close deletes the generated keys");
  }

  @Test
  void withEmulation_socketTransport_isRefusedUnlessNone() {
    Loopback sockets = Loopback.insecurePlaintext(Transport.SOCKET);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> sockets.withEmulation(LinkEmulation.latency(Duration.ofMillis(5))));
    assertEquals(
        "link emulation needs the Netty transport: the blocking sockets transport does not"
            + " emulate links",
        e.getMessage());
    assertSame(sockets, sockets.withEmulation(LinkEmulation.NONE));
    assertEquals(
        Transport.NETTY,
        Loopback.tls(Transport.NETTY)
            .withEmulation(LinkEmulation.latency(Duration.ofMillis(5)))
            .transport());
  }

  @Test
  void parse_namesInAnyCase_orAClearError() {
    assertEquals(Transport.NETTY, Transport.parse("netty"));
    assertEquals(Transport.SOCKET, Transport.parse("Socket"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Transport.parse("udp"));
    assertEquals("transport udp: want netty or socket", e.getMessage());
  }

  /** Nobody listens at {@code address} any more: a connection is refused. */
  private static void assertRefused(InetSocketAddress address) throws IOException {
    assertThrows(
        ConnectException.class,
        () -> {
          try (Socket s = new Socket(address.getAddress(), address.getPort())) {
            s.getOutputStream().flush();
          }
        },
        "still listening at " + address);
  }
}
