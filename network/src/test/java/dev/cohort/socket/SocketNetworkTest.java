package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.TestKeys;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.TlsProvider;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How socket parties find and verify each other: the connection rules of the Netty transport,
 * mutual TLS with ids bound to certificates, and the options the socket transport refuses.
 */
class SocketNetworkTest {

  @TempDir Path honestKeys;
  @TempDir Path rogueKeys;

  private static TransportOptions plaintext() {
    return TransportOptions.plaintextInsecure().withConnectTimeout(Duration.ofSeconds(20));
  }

  @Test
  void bind_optionsTheSocketTransportCannotHonour_areRejected() {
    TestKeys honest = TestKeys.generate(honestKeys, 2);
    InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
    IllegalArgumentException emulation =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                SocketNetwork.bind(
                    0,
                    2,
                    any,
                    plaintext().withEmulation(LinkEmulation.latency(Duration.ofMillis(5)))));
    assertTrue(
        emulation.getMessage().startsWith("the socket transport cannot emulate links"),
        emulation.getMessage());
    IllegalArgumentException boring =
        assertThrows(
            IllegalArgumentException.class,
            () -> SocketNetwork.bind(0, 2, any, honest.options(0, TlsProvider.OPENSSL)));
    assertEquals(
        "the socket transport runs the JDK's TLS; TlsProvider.OPENSSL is for NettyNetwork",
        boring.getMessage());
    IllegalArgumentException otherParty =
        assertThrows(
            IllegalArgumentException.class,
            () -> SocketNetwork.bind(1, 2, any, TransportOptions.tls(honest.identity(0))));
    assertEquals(
        "the TLS certificate is for cohort-party-0, not for cohort-party-1",
        otherParty.getMessage());
  }
}
