package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.netty.NettyNetwork;
import dev.cohort.transport.ProtocolMismatchException;
import dev.cohort.transport.TestKeys;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A socket party and a Netty party, one with TLS and one in plaintext: the transports recognise
 * each other's bytes of the other protocol as they recognise their own, so the dialer fails at once
 * naming the peer and the setting, whichever transport each side runs.
 */
class ProtocolMismatchInteropTest {

  @TempDir static Path keyDirectory;
  private static TestKeys keys;

  @BeforeAll
  static void generateKeys() {
    keys = TestKeys.generate(keyDirectory, 2);
  }

  private static TransportNetwork bind(boolean socket, int self, TransportOptions options) {
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    return socket
        ? SocketNetwork.bind(self, 2, any, options)
        : NettyNetwork.bind(self, 2, any, options);
  }

  @ParameterizedTest(name = "P0 on sockets: {0}, P0 with TLS: {1}")
  @CsvSource({"true, true", "true, false", "false, true", "false, false"})
  void connect_socketAndNettyPartiesWithOtherSettings_dialerFailsAtOnceNamingThePeer(
      boolean socket0, boolean tls0) throws Exception {
    TransportOptions plaintext = TransportOptions.plaintextInsecure();
    TransportNetwork party0 =
        bind(
            socket0,
            0,
            (tls0 ? keys.options(0) : plaintext).withConnectTimeout(Duration.ofSeconds(20)));
    TransportNetwork party1 =
        bind(
            !socket0,
            1,
            (tls0 ? plaintext : keys.options(1)).withConnectTimeout(Duration.ofMillis(1000)));
    List<InetSocketAddress> addresses = List.of(party0.localAddress(), party1.localAddress());
    CompletableFuture<?> accepting = CompletableFuture.runAsync(() -> party1.connect(addresses));
    try {
      long start = System.nanoTime();
      ProtocolMismatchException e =
          assertThrows(ProtocolMismatchException.class, () -> party0.connect(addresses));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      String peer = "P1 (127.0.0.1:" + addresses.get(1).getPort() + ") ";
      assertEquals(
          peer
              + (tls0
                  ? "speaks plaintext (--insecure-plaintext) but this party uses TLS"
                  : "speaks TLS but this party runs --insecure-plaintext")
              + ": give every party the same setting",
          e.getMessage());
      assertTrue(millis < 1500, "failed after " + millis + " ms");
    } finally {
      assertThrows(Exception.class, () -> accepting.get(20, TimeUnit.SECONDS));
      party0.close();
      party1.close();
    }
  }
}
