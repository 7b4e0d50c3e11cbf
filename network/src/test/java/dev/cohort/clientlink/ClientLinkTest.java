package dev.cohort.clientlink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.cohort.api.NetworkException;
import dev.cohort.netty.LeakCheck;
import dev.cohort.netty.NettyNetwork;
import dev.cohort.transport.LiveThreads;
import dev.cohort.transport.LogCapture;
import dev.cohort.transport.TransportOptions;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import dev.cohort.transport.tls.TlsProvider;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input clients and servers over real TLS on loopback: frames both ways, who may connect, one
 * connection per client, the frame limit, broadcast, and the errors a client sees.
 */
@ExtendWith(LeakCheck.class)
class ClientLinkTest {

  private static final InetSocketAddress ANY = new InetSocketAddress("127.0.0.1", 0);
  private static final Duration WAIT = Duration.ofSeconds(10);

  @TempDir static Path keys;
  @TempDir static Path rogueKeys;
  private static EventLoopGroup clients;

  private final List<ClientLinkServer> servers = new ArrayList<>();
  private final List<Recorder> recorders = new ArrayList<>();
  private final List<ClientLink> links = new ArrayList<>();

  @BeforeAll
  static void keys() {
    Certificates.generate(keys, 3);
    Certificates.generateClients(keys, 6);
    Certificates.generate(rogueKeys, 1);
    Certificates.generateClients(rogueKeys, 1);
    clients = new NioEventLoopGroup(1);
  }

  @AfterAll
  static void stop() {
    clients.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @AfterEach
  void close() {
    links.forEach(ClientLink::close);
    servers.forEach(ClientLinkServer::close);
  }

  /** Starts servers 0 .. n-1 (party i's certificate) with {@code options}. */
  private List<InetSocketAddress> start(int n, ClientLinkOptions options, boolean echo) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Recorder recorder = new Recorder(i, echo);
      ClientLinkServer server =
          ClientLinkServer.start(ANY, TlsIdentity.load(keys, i), options, recorder);
      recorder.server = server;
      servers.add(server);
      recorders.add(recorder);
      addresses.add(server.localAddress());
    }
    return addresses;
  }

  private ClientLink connect(List<InetSocketAddress> to, int client, ClientLinkOptions options) {
    ClientLink link =
        ClientLink.connect(to, TlsIdentity.loadClient(keys, client), options, clients);
    links.add(link);
    return link;
  }

  private static String name(int server, InetSocketAddress address) {
    return "server " + server + " (127.0.0.1:" + address.getPort() + ")";
  }

  private static byte[] payload(int client, int server, int k) {
    if (k == 3) { // one large frame: many TLS records, many reads
      byte[] large = new byte[200_000];
      new Random(31L * client + server).nextBytes(large);
      return large;
    }
    return ("client " + client + " to server " + server + ", frame " + k)
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void roundTrip_fourClientsThreeServers_framesArriveBothWaysInOrder() {
    List<InetSocketAddress> addresses = start(3, ClientLinkOptions.defaults(), true);
    for (int c = 0; c < 4; c++) {
      ClientLink link = connect(addresses, c, ClientLinkOptions.defaults());
      assertEquals(c, link.client());
      assertEquals(3, link.servers());
    }
    for (ClientLink link : links) {
      for (int s = 0; s < 3; s++) {
        for (int k = 0; k < 4; k++) {
          link.send(s, payload(link.client(), s, k));
        }
      }
    }
    for (ClientLink link : links) {
      for (int s = 0; s < 3; s++) {
        for (int k = 0; k < 4; k++) {
          byte[] expected = Recorder.reply(s, payload(link.client(), s, k));
          assertArrayEquals(expected, link.receive(s, WAIT), "client " + link.client() + ", " + s);
        }
      }
    }
    for (int s = 0; s < 3; s++) {
      long bytes = 0;
      for (int c = 0; c < 4; c++) {
        List<byte[]> got = recorders.get(s).from(c);
        assertEquals(4, got.size(), "frames from client " + c + " at server " + s);
        for (int k = 0; k < 4; k++) {
          assertArrayEquals(payload(c, s, k), got.get(k));
          bytes += 4 + payload(c, s, k).length;
        }
      }
      assertEquals(4, servers.get(s).connectedClients());
      assertEquals(bytes, servers.get(s).bytesReceived(), "server " + s);
      assertEquals(bytes + 16, servers.get(s).bytesSent(), "one more byte per reply");
    }
  }

  @Test
  void connect_partyCertificateOfferedAsAClients_isRefusedInTheHandshake() throws Exception {
    List<InetSocketAddress> addresses = start(1, ClientLinkOptions.defaults(), true);
    TlsIdentity party2 = TlsIdentity.load(keys, 2);
    try (LogCapture log = LogCapture.start();
        RawClient rogue = RawClient.connect(clients, party2.clientLinkClientContext(), addresses)) {
      assertTrue(rogue.awaitClosed(WAIT), "the server closed the connection");
      assertEquals(0, rogue.bytesRead(), "no admission, nothing at all");
      assertEquals(
          1,
          log.await(
              Level.WARN, "CN=cohort-party-2 is not an input client's certificate", 1, 10_000));
    }
    assertEquals(0, servers.get(0).connectedClients());
    assertTrue(recorders.get(0).events.isEmpty(), recorders.get(0).events.toString());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClientLink.connect(addresses, party2, ClientLinkOptions.defaults(), clients));
    assertEquals(
        "a client link proves an input client's certificate, not CN=cohort-party-2",
        e.getMessage());
  }

  @Test
  void connect_clientCertificateOfAnotherCa_isRefusedInTheHandshake() throws Exception {
    List<InetSocketAddress> addresses = start(1, ClientLinkOptions.defaults(), true);
    TlsIdentity rogue = TlsIdentity.loadClient(rogueKeys, 0);
    // The CA certificate is public: the rogue trusts the servers' CA, but its own is another one.
    TlsIdentity forged =
        new TlsIdentity(TlsIdentity.load(keys, 0).ca(), rogue.certificate(), rogue.key());
    try (LogCapture log = LogCapture.start()) {
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> ClientLink.connect(addresses, forged, ClientLinkOptions.defaults(), clients));
      assertTrue(
          e.getMessage().startsWith("client 0 could not connect to " + name(0, addresses.get(0))),
          e.getMessage());
      assertEquals(1, log.await(Level.WARN, "TLS handshake failed", 1, 10_000));
    }
    assertEquals(0, servers.get(0).connectedClients());
    assertTrue(recorders.get(0).events.isEmpty(), recorders.get(0).events.toString());
  }

  @Test
  void connect_serverProvesAnotherPartysCertificate_isRefusedByTheClient() {
    Recorder recorder = new Recorder(1, true);
    ClientLinkServer impostor =
        ClientLinkServer.start(
            ANY, TlsIdentity.load(keys, 1), ClientLinkOptions.defaults(), recorder);
    servers.add(impostor);
    List<InetSocketAddress> addresses = List.of(impostor.localAddress()); // listed as server 0
    NetworkException e =
        assertThrows(
            NetworkException.class, () -> connect(addresses, 0, ClientLinkOptions.defaults()));
    assertTrue(
        e.getMessage().startsWith("client 0 could not connect to " + name(0, addresses.get(0))),
        e.getMessage());
    assertTrue(
        e.getMessage()
            .endsWith(
                "TLS handshake failed: the server proved CN=cohort-party-1, not CN=cohort-party-0"
                    + " of the server dialed"),
        e.getMessage());
    assertEquals(0, impostor.connectedClients());
  }

  @Test
  void oversizeLengthPrefix_closesOnlyThatConnectionNamingTheClient() throws Exception {
    List<InetSocketAddress> addresses =
        start(1, ClientLinkOptions.defaults().withMaxFrameBytes(1024), true);
    ClientLink liar = connect(addresses, 0, ClientLinkOptions.defaults()); // allows itself 1 MiB
    ClientLink honest = connect(addresses, 1, ClientLinkOptions.defaults().withMaxFrameBytes(1024));
    Recorder recorder = recorders.get(0);
    assertEquals("connected", recorder.next().kind());
    assertEquals("connected", recorder.next().kind());
    try (LogCapture log = LogCapture.start()) {
      liar.send(0, new byte[2000]);
      Recorder.Event gone = recorder.next();
      assertEquals("disconnected", gone.kind());
      assertEquals(0, gone.client());
      String reason =
          "client 0: frame of 2000 bytes exceeds the limit of 1024 bytes; connection closed";
      assertEquals(reason, gone.cause().getMessage());
      assertEquals(1, log.await(Level.WARN, reason, 1, 10_000));
    }
    NetworkException e = assertThrows(NetworkException.class, () -> liar.receive(0, WAIT));
    assertTrue(
        e.getMessage().startsWith(name(0, addresses.get(0)) + " closed the connection"),
        e.getMessage());
    byte[] hello = "still here".getBytes(StandardCharsets.UTF_8);
    honest.send(0, hello);
    assertArrayEquals(Recorder.reply(0, hello), honest.receive(0, WAIT));
    assertEquals(1, servers.get(0).connectedClients());
    assertEquals(List.of(), recorder.from(0), "nothing of the oversize frame was delivered");
  }

  /**
   * A client that sends and never reads (each message earns it a reply, as a malformed submission
   * does) is cut off once more than the bound waits for it; the server never buffers more, and the
   * other clients go on.
   */
  @Test
  void clientThatNeverReads_isClosedOnceItsRepliesExceedTheBound() throws Exception {
    int maxFrame = 64 * 1024;
    List<InetSocketAddress> addresses =
        start(1, ClientLinkOptions.defaults().withMaxFrameBytes(maxFrame), true);
    ClientLink honest =
        connect(addresses, 1, ClientLinkOptions.defaults().withMaxFrameBytes(maxFrame));
    Recorder recorder = recorders.get(0);
    assertEquals("connected", recorder.next().kind());
    byte[] payload = new byte[maxFrame - 64];
    new Random(7).nextBytes(payload);
    try (LogCapture log = LogCapture.start();
        RawClient deaf =
            RawClient.connectNotReading(
                clients, TlsIdentity.loadClient(keys, 0).clientLinkClientContext(), addresses)) {
      assertEquals("connected", recorder.next().kind());
      // far more than the kernel's buffers on both ends and the bound together hold
      int sent = 0;
      while (sent < 2000 && deaf.send(payload)) {
        sent++;
      }
      Recorder.Event gone = recorder.next();
      assertEquals("disconnected", gone.kind());
      assertEquals(0, gone.client());
      String reason =
          "client 0 does not read what the server sends (over "
              + ClientLinkServer.pendingBound(maxFrame)
              + " bytes wait for it); connection closed";
      assertEquals(reason, gone.cause().getMessage());
      assertEquals(1, log.await(Level.WARN, reason, 1, 10_000));
    }
    byte[] hello = "still here".getBytes(StandardCharsets.UTF_8);
    honest.send(0, hello);
    assertArrayEquals(Recorder.reply(0, hello), honest.receive(0, WAIT));
    assertEquals(1, servers.get(0).connectedClients());
  }

  @Test
  void connect_secondConnectionWithTheSameClientId_isRefusedAndTheFirstKeepsItsSlot()
      throws Exception {
    List<InetSocketAddress> addresses = start(2, ClientLinkOptions.defaults(), true);
    ClientLink first = connect(addresses, 3, ClientLinkOptions.defaults());
    try (LogCapture log = LogCapture.start()) {
      NetworkException e =
          assertThrows(
              NetworkException.class, () -> connect(addresses, 3, ClientLinkOptions.defaults()));
      assertTrue(
          e.getMessage()
              .matches(
                  "client 3 could not connect to server [01] \\(127\\.0\\.0\\.1:\\d+\\): refused:"
                      + " client 3 is connected already"),
          e.getMessage());
      assertTrue(log.await(Level.WARN, "client 3 is connected already", 1, 10_000) >= 1);
    }
    for (int s = 0; s < 2; s++) {
      byte[] ping = ("ping " + s).getBytes(StandardCharsets.UTF_8);
      first.send(s, ping);
      assertArrayEquals(Recorder.reply(s, ping), first.receive(s, WAIT));
      assertEquals(1, servers.get(s).connectedClients());
      assertEquals(
          List.of(new Recorder.Event("connected", 3, null)), List.copyOf(recorders.get(s).events));
    }
  }

  @Test
  void broadcast_reachesEveryConnectedClientAndOnlyThem() throws Exception {
    List<InetSocketAddress> addresses = start(1, ClientLinkOptions.defaults(), false);
    for (int c = 0; c < 5; c++) {
      connect(addresses, c, ClientLinkOptions.defaults());
    }
    Recorder recorder = recorders.get(0);
    for (int c = 0; c < 5; c++) {
      assertEquals("connected", recorder.next().kind());
    }
    ClientLink left = links.get(2);
    left.close();
    assertEquals(new Recorder.Event("disconnected", 2, null), recorder.next());
    byte[] news = "session 7 is open".getBytes(StandardCharsets.UTF_8);
    assertEquals(4, servers.get(0).broadcast(news));
    for (int c : new int[] {0, 1, 3, 4}) {
      assertArrayEquals(news, links.get(c).receive(0, WAIT), "client " + c);
    }
    assertEquals(4L * (4 + news.length), servers.get(0).bytesSent());
    assertTrue(servers.get(0).send(1, news));
    assertEquals(false, servers.get(0).send(2, news), "client 2 has left");
    NetworkException e = assertThrows(NetworkException.class, () -> left.receive(0, WAIT));
    assertEquals(
        "the connection to " + name(0, addresses.get(0)) + " was closed by this client",
        e.getMessage());
  }

  @Test
  void disconnect_clientsLeft_serverHoldsNoTlsSessionOfThemWithEitherProvider() throws Exception {
    for (TlsProvider provider : new TlsProvider[] {TlsProvider.AUTO, TlsProvider.JDK}) {
      Recorder recorder = new Recorder(0, true);
      ClientLinkServer server =
          ClientLinkServer.start(
              ANY,
              TlsIdentity.load(keys, 0).withProvider(provider),
              ClientLinkOptions.defaults(),
              recorder);
      recorder.server = server;
      servers.add(server);
      for (int c = 0; c < 3; c++) {
        ClientLink link =
            ClientLink.connect(
                List.of(server.localAddress()),
                TlsIdentity.loadClient(keys, c).withProvider(provider),
                ClientLinkOptions.defaults(),
                clients);
        byte[] ping = {(byte) c};
        link.send(0, ping);
        assertArrayEquals(Recorder.reply(0, ping), link.receive(0, WAIT));
        link.close();
        assertEquals("connected", recorder.next().kind());
        assertEquals(new Recorder.Event("disconnected", c, null), recorder.next());
      }
      assertEquals(0, server.cachedTlsSessions(), provider.implementation());
    }
  }

  @Test
  void roundTrip_jdkTlsAtBothEnds_checksTheServersCertificateTheSameWay() {
    ClientLinkOptions options = ClientLinkOptions.defaults();
    Recorder recorder = new Recorder(0, true);
    ClientLinkServer server =
        ClientLinkServer.start(
            ANY, TlsIdentity.load(keys, 0).withProvider(TlsProvider.JDK), options, recorder);
    recorder.server = server;
    servers.add(server);
    TlsIdentity client = TlsIdentity.loadClient(keys, 4).withProvider(TlsProvider.JDK);
    ClientLink link = ClientLink.connect(List.of(server.localAddress()), client, options, clients);
    links.add(link);
    byte[] ping = {1, 2, 3};
    link.send(0, ping);
    assertArrayEquals(Recorder.reply(0, ping), link.receive(0, WAIT));
    List<InetSocketAddress> wrong = List.of(server.localAddress(), server.localAddress());
    TlsIdentity other = TlsIdentity.loadClient(keys, 5).withProvider(TlsProvider.JDK);
    NetworkException e =
        assertThrows(
            NetworkException.class, () -> ClientLink.connect(wrong, other, options, clients));
    assertTrue(
        e.getMessage().endsWith("not CN=cohort-party-1 of the server dialed"), e.getMessage());
  }

  @Test
  void connect_withoutAGroup_runsOneThreadOfItsOwnAndStopsItOnClose() throws Exception {
    List<InetSocketAddress> addresses = start(2, ClientLinkOptions.defaults(), true);
    String threads = "cohort-client-link-of-client-2-";
    ClientLink link =
        ClientLink.connect(
            addresses, TlsIdentity.loadClient(keys, 2), ClientLinkOptions.defaults(), null);
    try {
      for (int s = 0; s < 2; s++) {
        byte[] ping = {(byte) s};
        link.send(s, ping);
        assertArrayEquals(Recorder.reply(s, ping), link.receive(s, WAIT));
      }
      assertEquals(1, LiveThreads.count(threads));
    } finally {
      link.close();
    }
    assertEquals(0, LiveThreads.awaitAtMost(threads, 0));
  }

  @Test
  void receive_nothingSent_failsNamingTheServerAfterTheTimeout() {
    List<InetSocketAddress> addresses = start(2, ClientLinkOptions.defaults(), false);
    ClientLink link = connect(addresses, 0, ClientLinkOptions.defaults());
    long start = System.nanoTime();
    NetworkException e =
        assertThrows(NetworkException.class, () -> link.receive(1, Duration.ofMillis(300)));
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    assertEquals(name(1, addresses.get(1)) + " sent nothing within 300 ms", e.getMessage());
    assertTrue(millis >= 290, "gave up after " + millis + " ms");
  }

  @Test
  void receive_serverClosed_failsNamingTheServerThenAndAfterwards() {
    List<InetSocketAddress> addresses = start(2, ClientLinkOptions.defaults(), false);
    ClientLink link = connect(addresses, 0, ClientLinkOptions.defaults());
    servers.get(1).close();
    String closed = name(1, addresses.get(1)) + " closed the connection";
    NetworkException e = assertThrows(NetworkException.class, () -> link.receive(1, WAIT));
    assertTrue(e.getMessage().startsWith(closed), e.getMessage());
    NetworkException again = assertThrows(NetworkException.class, () -> link.receive(1, WAIT));
    assertEquals(e.getMessage(), again.getMessage());
    NetworkException send = assertThrows(NetworkException.class, () -> link.send(1, new byte[1]));
    assertEquals(e.getMessage(), send.getMessage());
  }

  @Test
  void connect_aServerNotListening_failsNamingIt() {
    List<InetSocketAddress> addresses =
        new ArrayList<>(start(1, ClientLinkOptions.defaults(), false));
    servers.get(0).close();
    addresses.add(0, addresses.get(0)); // server 0 and server 1 at a closed port
    NetworkException e =
        assertThrows(
            NetworkException.class,
            () -> connect(addresses, 0, ClientLinkOptions.defaults().withHandshakeTimeout(WAIT)));
    assertTrue(
        e.getMessage()
            .matches(
                "client 0 could not connect to server [01] \\(127\\.0\\.0\\.1:\\d+\\): could not connect: .*"),
        e.getMessage());
  }

  @Test
  void connect_serverThatNeverAdmits_failsAfterTheHandshakeTimeout() {
    // A mesh party proves party 0's certificate and accepts the client's, then waits for a hello.
    try (NettyNetwork mesh =
        NettyNetwork.bind(0, 2, ANY, TransportOptions.tls(TlsIdentity.load(keys, 0)))) {
      List<InetSocketAddress> addresses = List.of(mesh.localAddress());
      ClientLinkOptions options =
          ClientLinkOptions.defaults().withHandshakeTimeout(Duration.ofMillis(500));
      long start = System.nanoTime();
      NetworkException e =
          assertThrows(NetworkException.class, () -> connect(addresses, 0, options));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertEquals(
          "client 0 could not connect to "
              + name(0, addresses.get(0))
              + ": not admitted within the handshake timeout of 500 ms",
          e.getMessage());
      assertTrue(millis >= 450 && millis < 5000, "gave up after " + millis + " ms");
    }
  }

  @Test
  void server_connectionThatNeverStartsTls_isClosedAfterTheHandshakeTimeout() throws Exception {
    List<InetSocketAddress> addresses =
        start(1, ClientLinkOptions.defaults().withHandshakeTimeout(Duration.ofMillis(300)), false);
    try (Socket silent = new Socket()) {
      silent.connect(addresses.get(0));
      silent.setSoTimeout(10_000);
      long start = System.nanoTime();
      assertEquals(-1, silent.getInputStream().read(), "closed without a byte");
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 250 && millis < 5000, "closed after " + millis + " ms");
    }
    assertEquals(0, servers.get(0).connectedClients());
  }

  @Test
  void start_clientCertificate_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                ClientLinkServer.start(
                    ANY,
                    TlsIdentity.loadClient(keys, 0),
                    ClientLinkOptions.defaults(),
                    new Recorder(0, false)));
    assertEquals(
        "a client link server proves a party's certificate, not CN=cohort-client-0",
        e.getMessage());
  }
}
