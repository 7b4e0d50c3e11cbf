package dev.cohort.socket;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.NetworkException;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.transport.LinkEmulation;
import dev.cohort.transport.Parties;
import dev.cohort.transport.TestKeys;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.WireFormat;
import dev.cohort.transport.tls.TlsIdentity;
import dev.cohort.transport.tls.TlsProvider;
import java.io.DataOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
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
  void connect_certificateFromAnotherCa_isRefused() {
    TestKeys honest = TestKeys.generate(honestKeys, 2);
    TestKeys rogue = TestKeys.generate(rogueKeys, 2);
    TransportOptions[] options = {
      rogue.options(0).withConnectTimeout(Duration.ofSeconds(10)), // fails at its TLS handshake
      honest.options(1).withConnectTimeout(Duration.ofMillis(500))
    };
    List<SocketNetwork> networks = SocketParties.bind(2, p -> options[p]);
    List<InetSocketAddress> addresses = SocketParties.addresses(networks);
    PartyFailedException failure =
        assertThrows(
            PartyFailedException.class,
            () -> Parties.each(2, p -> networks.get(p).connect(addresses)));
    String p1 = "P1 (127.0.0.1:" + addresses.get(1).getPort() + ")";
    String p0 = "P0 (127.0.0.1:" + addresses.get(0).getPort() + ")";
    Throwable rogueFailure = failure.getCause();
    assertTrue(rogueFailure instanceof NetworkException, rogueFailure.toString());
    assertTrue(
        rogueFailure
            .getMessage()
            .startsWith("could not connect to " + p1 + ": TLS handshake failed"),
        rogueFailure.getMessage());
    assertEquals(1, failure.getSuppressed().length);
    assertEquals(
        p0 + " did not connect within 500 ms", failure.getSuppressed()[0].getCause().getMessage());
    networks.forEach(network -> assertTrue(network.isReleased(), "a failed connect releases all"));
  }

  @Test
  void connect_helloClaimsAnIdOtherThanTheCertificates_isRefusedAndLearnsNothing()
      throws Exception {
    TestKeys honest = TestKeys.generate(honestKeys, 3);
    SocketNetwork party1 =
        SocketNetwork.bind(
            1,
            2,
            new InetSocketAddress("127.0.0.1", 0),
            honest.options(1).withConnectTimeout(Duration.ofMillis(1500)));
    List<InetSocketAddress> addresses =
        List.of(new InetSocketAddress("127.0.0.1", 9), party1.localAddress());
    CompletableFuture<SocketTransport> connecting =
        CompletableFuture.supplyAsync(() -> party1.connect(addresses));
    TlsIdentity impostor = honest.identity(2); // a valid certificate, but for P2
    try (SSLSocket socket =
        (SSLSocket)
            impostor
                .jdkContext()
                .getSocketFactory()
                .createSocket("127.0.0.1", party1.localAddress().getPort())) {
      socket.setEnabledProtocols(new String[] {"TLSv1.3"});
      socket.startHandshake();
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      out.writeInt(16);
      out.writeInt(WireFormat.HELLO);
      out.writeInt(0); // claims P0
      out.writeLong(WireFormat.MAGIC);
      out.flush();
      assertEquals(-1, socket.getInputStream().read(), "refused without a hello in return");
    }
    Throwable e =
        assertThrows(Exception.class, () -> connecting.get(20, TimeUnit.SECONDS)).getCause();
    assertTrue(e instanceof NetworkException, e.toString());
    assertTrue(
        e.getMessage()
            .startsWith("P0 (127.0.0.1:9) did not connect within 1500 ms (last attempt: refused /"),
        e.getMessage());
    assertTrue(
        e.getMessage().endsWith(": claims to be P0 but its certificate is for CN=cohort-party-2)"),
        e.getMessage());
  }

  @Test
  void connect_anotherPartyAnswersAtTheAddressDialed_isRefusedNamingBoth() {
    TestKeys honest = TestKeys.generate(honestKeys, 3);
    List<SocketNetwork> networks =
        SocketParties.bind(3, p -> honest.options(p).withConnectTimeout(Duration.ofSeconds(2)));
    List<InetSocketAddress> real = SocketParties.addresses(networks);
    List<InetSocketAddress> swapped = List.of(real.get(0), real.get(2), real.get(1));
    try {
      NetworkException e =
          assertThrows(NetworkException.class, () -> networks.get(0).connect(swapped));
      String at1 = "P1 (127.0.0.1:" + real.get(2).getPort() + ")";
      String at2 = "P2 (127.0.0.1:" + real.get(1).getPort() + ")";
      assertTrue(
          e.getMessage()
                  .equals(
                      "could not connect to " + at1 + ": answered as P2 at the address of " + at1)
              || e.getMessage()
                  .equals(
                      "could not connect to " + at2 + ": answered as P1 at the address of " + at2),
          e.getMessage());
    } finally {
      networks.forEach(SocketNetwork::close);
    }
  }

  @Test
  void handshake_silentConnection_isClosedAfterTheHandshakeTimeout() throws Exception {
    TestKeys honest = TestKeys.generate(honestKeys, 2);
    try (SocketNetwork party1 =
            SocketNetwork.bind(
                1,
                2,
                new InetSocketAddress("127.0.0.1", 0),
                honest.options(1).withHandshakeTimeout(Duration.ofMillis(300)));
        Socket silent = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      long start = System.nanoTime();
      silent.setSoTimeout(5000);
      assertEquals(-1, silent.getInputStream().read(), "closed without a word");
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 250 && millis < 3000, millis + " ms");
    }
  }

  @Test
  void connect_missingParty_failsNamingItAndItsAddress() throws Exception {
    try (Socket reserved = Parties.reservePort()) { // refuses: nobody listens there
      InetSocketAddress goneAddress = Parties.addressOf(reserved);
      SocketNetwork alone =
          SocketNetwork.bind(
              0,
              2,
              new InetSocketAddress("127.0.0.1", 0),
              plaintext().withConnectTimeout(Duration.ofMillis(500)));
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> alone.connect(List.of(alone.localAddress(), goneAddress)));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "P1 (127.0.0.1:"
                      + goneAddress.getPort()
                      + ") did not connect within 500 ms (last attempt: Connection refused"),
          e.getMessage());
      assertTrue(alone.isReleased(), "a failed connect releases the threads and sockets");
    }
  }

  @Test
  void connect_higherPartyStartsLater_dialerRetriesUntilItListens() throws Exception {
    try (Socket reserved = Parties.reservePort()) {
      InetSocketAddress address1 = Parties.addressOf(reserved); // refuses until P1 binds
      SocketNetwork party0 =
          SocketNetwork.bind(0, 2, new InetSocketAddress("127.0.0.1", 0), plaintext());
      List<InetSocketAddress> addresses = List.of(party0.localAddress(), address1);
      CompletableFuture<SocketTransport> connecting =
          CompletableFuture.supplyAsync(() -> party0.connect(addresses));
      SocketTransport t1 =
          CompletableFuture.supplyAsync(
                  () -> SocketNetwork.bind(1, 2, address1, plaintext()).connect(addresses),
                  CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS))
              .get(20, TimeUnit.SECONDS);
      SocketTransport t0 = connecting.get(20, TimeUnit.SECONDS);
      try {
        List<long[][]> received =
            Parties.each(
                2, p -> (p == 0 ? t0 : t1).exchange(new long[][] {{7}, {8}}, new int[] {1, 1}));
        assertArrayEquals(new long[] {7}, received.get(0)[1]);
        assertArrayEquals(new long[] {8}, received.get(1)[0]);
      } finally {
        t0.close();
        t1.close();
      }
    }
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
