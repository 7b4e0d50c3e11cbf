package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import dev.cohort.api.Computation;
import dev.cohort.api.NetworkException;
import dev.cohort.api.PeerAbortedException;
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
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.net.FramePlan;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.RandomCircuit;
import dev.cohort.testing.SparseRoundsContract;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every transport promises, run against each one on loopback (real sockets, real TLS, parties
 * as threads): how peers find and verify each other, the wording of every failure, and what a
 * corrupt peer's bytes can and cannot do. {@code NettyTransportTest} and {@code
 * SocketTransportTest} extend it, as the suites extend {@code SuiteContractTest}; a transport that
 * words a failure differently, admits a peer the other refuses, or pins memory for bytes it never
 * received fails here.
 */
public abstract class TransportContractTest {

  /** A port nobody listens on: a rogue P0 "lives" there, so P1 never reaches it by dialing. */
  protected static final InetSocketAddress NOBODY = new InetSocketAddress("127.0.0.1", 9);

  private static final long BOUND = 16 * Allocations.MIB;

  @TempDir static Path keyDirectory;
  @TempDir Path rogueKeys;

  /** Certificates of the honest deployment, for up to 7 parties. */
  protected static TestKeys keys;

  @BeforeAll
  static void generateKeys() {
    keys = TestKeys.generate(keyDirectory, 7);
  }

  /**
   * Checks the failure of an exchange on a channel that failed with {@code first}: it must name the
   * same peer. A transport that keeps the first failure word for word says so by overriding this.
   */
  protected void assertFailedAgain(String first, String again) {
    String peer = first.substring(0, first.indexOf(')') + 1);
    assertTrue(again.startsWith(peer + " "), again);
  }

  private final Transport transport;
  private final Predicate<TransportNetwork> released;

  /**
   * The contract for {@code transport}; {@code released} tells whether a network's listener,
   * connections and threads are all released.
   */
  protected TransportContractTest(Transport transport, Predicate<TransportNetwork> released) {
    this.transport = transport;
    this.released = released;
  }

  private TransportNetwork bind(
      int self, int parties, InetSocketAddress listen, TransportOptions options) {
    return transport.bind(self, parties, listen, options);
  }

  /**
   * Reserves a loopback port without listening on it: the kernel refuses connections to it (so a
   * dialer sees a party that has not started yet), nobody else can take it while the socket is
   * open, and with SO_REUSEADDR a listener may still bind it. No port is ever probed.
   */
  private static Socket reservePort() throws IOException {
    Socket socket = new Socket();
    socket.setReuseAddress(true);
    socket.bind(new InetSocketAddress("127.0.0.1", 0));
    return socket;
  }

  private static InetSocketAddress addressOf(Socket reserved) {
    return new InetSocketAddress("127.0.0.1", reserved.getLocalPort());
  }

  private boolean isReleased(TransportNetwork network) {
    return released.test(network);
  }

  /**
   * Bytes allocated so far by the threads of {@code party} that read a connection's frames: those
   * that verify a connection ({@code helloSeen} false) or those that read a peer's rounds.
   */
  protected abstract LongSupplier readerAllocations(TransportNetwork party, boolean helloSeen)
      throws Exception;

  /**
   * Checks what the honest P1 wrote to a P0 that broke the frame format, {@code answer}, beyond its
   * hello (which the contract checks): a transport that sends its round before it reads the peer's
   * has sent that frame too.
   */
  protected abstract void assertAnswerToBrokenPeer(Breach breach, byte[] answer);

  protected static TransportOptions plaintext() {
    return TransportOptions.plaintextInsecure()
        .withConnectTimeout(Duration.ofSeconds(20))
        .withReceiveTimeout(Duration.ofSeconds(20));
  }

  private TransportNetwork bindAny(int self, int parties, TransportOptions options) {
    return bind(self, parties, new InetSocketAddress("127.0.0.1", 0), options);
  }

  private List<TransportNetwork> bindAll(int parties, IntFunction<TransportOptions> options) {
    List<TransportNetwork> endpoints = new ArrayList<>();
    for (int p = 0; p < parties; p++) {
      endpoints.add(bindAny(p, parties, options.apply(p)));
    }
    return endpoints;
  }

  private static List<InetSocketAddress> addresses(List<TransportNetwork> endpoints) {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (TransportNetwork endpoint : endpoints) {
      addresses.add(endpoint.localAddress());
    }
    return addresses;
  }

  private static String name(InetSocketAddress address, int party) {
    return "P" + party + " (127.0.0.1:" + address.getPort() + ")";
  }

  /**
   * Checks every party's outputs against the circuit's plaintext evaluation (an independent
   * BigInteger oracle), the multiplications counted, and at most one frame per peer per round but
   * at least one in every three.
   */
  protected static void assertMatchesPlaintext(
      RandomCircuit circuit, Field field, List<Result<BigInteger[]>> results) {
    BigInteger[] expected = circuit.expected(field.modulus());
    for (Result<BigInteger[]> r : results) {
      BigInteger[] actual = r.value().clone();
      for (int i = 0; i < actual.length; i++) {
        actual[i] = actual[i].mod(field.modulus());
      }
      assertArrayEquals(expected, actual);
      assertEquals(circuit.multiplications(), r.metrics().elements().get("multiply"));
      long rounds = rounds(r);
      for (int q = 0; q < r.metrics().framesSent().length; q++) {
        long frames = r.metrics().framesSent()[q];
        if (q == r.metrics().party()) {
          assertEquals(0, frames);
          continue;
        }
        assertTrue(frames <= rounds, frames + " frames in " + rounds + " rounds: one at most");
        assertTrue(
            frames >= rounds / (FramePlan.MAX_SKIPPED + 1),
            frames + " frames in " + rounds + " rounds: a link waits at most two rounds");
      }
    }
  }

  private static long rounds(Result<?> r) {
    return r.metrics().rounds() + r.metrics().setupRounds();
  }

  /** Party {@code p} runs {@code computation} through an engine over this transport. */
  protected <T> List<Result<T>> run(
      int parties,
      IntFunction<TransportOptions> options,
      SuiteFactory suite,
      EngineConfig config,
      Computation<T> computation) {
    try (LocalParties local =
        LocalParties.builder(parties)
            .suite(suite)
            .config(config)
            .mesh(Loopback.of(transport, options))
            .open()) {
      return local.run(computation);
    }
  }

  @Test
  void engine_randomCircuitOverTls_matchesPlaintextWithAtMostOneFramePerPeerPerRound() {
    int parties = 3;
    long seed = 3003;
    Field field = Fields.MERSENNE_61;
    RandomCircuit circuit = RandomCircuit.generate(seed, parties, RandomCircuit.Shape.DEFAULT);
    List<Result<BigInteger[]>> results =
        run(
            parties,
            keys::options,
            BgwSuite.factory(new BgwConfig(field, 1, 64)),
            EngineConfig.defaults().withInsecureSeed(seed),
            circuit.computation());
    assertMatchesPlaintext(circuit, field, results);
  }

  // Finding and verifying peers.

  @Test
  void connect_missingParty_failsNamingItAndItsAddress() throws Exception {
    try (Socket reserved = reservePort()) { // refuses: nobody listens there
      InetSocketAddress goneAddress = addressOf(reserved);
      TransportNetwork alone =
          bindAny(0, 2, plaintext().withConnectTimeout(Duration.ofMillis(500)));
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> alone.connect(List.of(alone.localAddress(), goneAddress)));
      assertTrue(
          e.getMessage()
              .startsWith(
                  name(goneAddress, 1)
                      + " did not connect within 500 ms (last attempt: Connection refused"),
          e.getMessage());
      assertTrue(isReleased(alone), "a failed connect releases the threads and sockets");
    }
  }

  @Test
  void connect_higherPartyStartsLater_dialerRetriesUntilItListens() throws Exception {
    try (Socket reserved = reservePort()) {
      InetSocketAddress address1 = addressOf(reserved); // refuses until P1 binds
      TransportNetwork party0 = bindAny(0, 2, plaintext());
      List<InetSocketAddress> addresses = List.of(party0.localAddress(), address1);
      CompletableFuture<Channel> connecting =
          CompletableFuture.supplyAsync(() -> party0.connect(addresses));
      Channel t1 =
          CompletableFuture.supplyAsync(
                  () -> bind(1, 2, address1, plaintext()).connect(addresses),
                  CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS))
              .get(20, TimeUnit.SECONDS);
      Channel t0 = connecting.get(20, TimeUnit.SECONDS);
      try {
        List<long[][]> received =
            PartyThreads.each(
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
  void connect_certificateFromAnotherCa_isRefused() {
    TestKeys rogue = TestKeys.generate(rogueKeys, 2);
    TransportOptions[] options = {
      rogue.options(0).withConnectTimeout(Duration.ofSeconds(10)), // fails at its TLS handshake
      keys.options(1).withConnectTimeout(Duration.ofMillis(500))
    };
    List<TransportNetwork> endpoints = bindAll(2, p -> options[p]);
    List<InetSocketAddress> addresses = addresses(endpoints);
    List<PartyFailedException> failures =
        assertThrows(
                PartyFailedException.class,
                () -> PartyThreads.each(2, p -> endpoints.get(p).connect(addresses)))
            .failures();
    assertEquals(2, failures.size());
    PartyFailedException[] byParty = new PartyFailedException[2];
    failures.forEach(f -> byParty[f.party().index()] = f);
    Throwable rogueFailure = byParty[0].getCause();
    assertTrue(rogueFailure instanceof NetworkException, rogueFailure.toString());
    assertTrue(
        rogueFailure
            .getMessage()
            .startsWith(
                "could not connect to " + name(addresses.get(1), 1) + ": TLS handshake failed"),
        rogueFailure.getMessage());
    assertEquals(
        name(addresses.get(0), 0) + " did not connect within 500 ms",
        byParty[1].getCause().getMessage());
    endpoints.forEach(e -> assertTrue(isReleased(e), "a failed connect releases all"));
  }

  @Test
  void connect_helloClaimsAnIdOtherThanTheCertificates_isRefusedAndLearnsNothing()
      throws Exception {
    TransportNetwork party1 =
        bindAny(1, 2, keys.options(1).withConnectTimeout(Duration.ofMillis(1500)));
    List<InetSocketAddress> addresses = List.of(NOBODY, party1.localAddress());
    CompletableFuture<Channel> connecting =
        CompletableFuture.supplyAsync(() -> party1.connect(addresses));
    TlsIdentity impostor = keys.identity(2); // a valid certificate, but for P2
    try (SSLSocket socket =
        (SSLSocket)
            impostor
                .jdkContext()
                .getSocketFactory()
                .createSocket("127.0.0.1", party1.localAddress().getPort())) {
      socket.setEnabledProtocols(new String[] {"TLSv1.3"});
      socket.startHandshake();
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      Breach.header(out, 8, WireFormat.HELLO, 0); // claims P0
      out.writeLong(WireFormat.MAGIC);
      out.flush();
      assertEquals(-1, readOrReset(socket), "refused without a hello in return");
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

  /** The next byte, or -1 at the end of the stream or when the peer reset the connection. */
  private static int readOrReset(Socket socket) throws IOException {
    try {
      return socket.getInputStream().read();
    } catch (SocketException reset) {
      return -1;
    }
  }

  /**
   * A party of protocol version 01 (big-endian words) dials: its hello is refused as not a Cohort
   * hello, with a log line that says so, before any of its words could be misread, and it gets no
   * hello in return.
   */
  @Test
  void connect_partyOfVersion01Dials_isRefusedAtItsHelloAndLearnsNothing() throws Exception {
    TransportNetwork party1 =
        bindAny(1, 2, plaintext().withConnectTimeout(Duration.ofMillis(1500)));
    try (LogCapture log = LogCapture.start()) {
      CompletableFuture<Channel> connecting =
          CompletableFuture.supplyAsync(
              () -> party1.connect(List.of(NOBODY, party1.localAddress())));
      try (Socket old = new Socket("127.0.0.1", party1.localAddress().getPort())) {
        old.setSoTimeout(20_000);
        old.getOutputStream().write(WireReference.hello(0, WireReference.VERSION_01));
        old.getOutputStream().write(WireReference.data(0, new long[] {1}, 1));
        old.getOutputStream().flush();
        assertEquals(-1, readOrReset(old), "refused without a hello in return");
      }
      String refused = "broke the frame format: " + WireFormat.NOT_A_HELLO;
      assertEquals(1, log.await(Level.WARN, refused, 1, 5000), "the refusal, logged once");
      Throwable e =
          assertThrows(Exception.class, () -> connecting.get(20, TimeUnit.SECONDS)).getCause();
      assertTrue(e instanceof NetworkException, e.toString());
      assertTrue(
          e.getMessage().startsWith("P0 (127.0.0.1:9) did not connect within 1500 ms"),
          e.getMessage());
    } finally {
      party1.close();
    }
  }

  /**
   * The party dialed answers with a hello of version 01: the dialer refuses it as not a Cohort
   * hello and fails naming the peer and the reason, before any round.
   */
  @Test
  void connect_peerDialedAnswersWithAVersion01Hello_failsNamingItAndTheReason() throws Exception {
    try (ServerSocket old = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      CompletableFuture<byte[]> heard =
          CompletableFuture.supplyAsync(
              () -> {
                try (Socket dialer = old.accept()) {
                  byte[] hello = dialer.getInputStream().readNBytes(20);
                  dialer.getOutputStream().write(WireReference.hello(1, WireReference.VERSION_01));
                  dialer.getOutputStream().flush();
                  dialer.getInputStream().readAllBytes(); // until the dialer closes
                  return hello;
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
      TransportNetwork party0 =
          bindAny(0, 2, plaintext().withConnectTimeout(Duration.ofMillis(1500)));
      InetSocketAddress oldAddress = new InetSocketAddress("127.0.0.1", old.getLocalPort());
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> party0.connect(List.of(party0.localAddress(), oldAddress)));
      assertEquals(
          "could not connect to "
              + name(oldAddress, 1)
              + ": broke the frame format: "
              + WireFormat.NOT_A_HELLO,
          e.getMessage());
      assertArrayEquals(
          WireReference.hello(0, WireReference.VERSION),
          heard.get(20, TimeUnit.SECONDS),
          "the dialer's hello, of this version");
      assertTrue(isReleased(party0), "a failed connect releases all");
    }
  }

  @Test
  void connect_anotherPartyAnswersAtTheAddressDialed_isRefusedNamingBoth() {
    List<TransportNetwork> endpoints =
        bindAll(3, p -> keys.options(p).withConnectTimeout(Duration.ofSeconds(2)));
    List<InetSocketAddress> real = addresses(endpoints);
    List<InetSocketAddress> swapped = List.of(real.get(0), real.get(2), real.get(1));
    try {
      NetworkException e =
          assertThrows(NetworkException.class, () -> endpoints.get(0).connect(swapped));
      String at1 = name(real.get(2), 1);
      String at2 = name(real.get(1), 2);
      assertTrue(
          e.getMessage()
                  .equals(
                      "could not connect to " + at1 + ": answered as P2 at the address of " + at1)
              || e.getMessage()
                  .equals(
                      "could not connect to " + at2 + ": answered as P1 at the address of " + at2),
          e.getMessage());
    } finally {
      endpoints.forEach(TransportNetwork::close);
    }
  }

  /**
   * One party runs in plaintext and the other with TLS, in both directions of the dial: the dialer
   * (P0) fails at once, long before its connect timeout, naming P1 and the setting; the accepting
   * P1 cannot trust unauthenticated bytes enough to give up, but names the cause when its own
   * connect timeout ends.
   */
  @ParameterizedTest(name = "P0 with TLS: {0}")
  @ValueSource(booleans = {false, true})
  void connect_oneSideTlsOtherPlaintext_dialerFailsAtOnceAndAcceptorNamesTheCause(boolean tls0)
      throws Exception {
    TransportOptions tls = keys.options(tls0 ? 0 : 1);
    TransportOptions[] options = {
      (tls0 ? tls : plaintext()).withConnectTimeout(Duration.ofSeconds(20)),
      (tls0 ? plaintext() : tls).withConnectTimeout(Duration.ofMillis(2500))
    };
    List<TransportNetwork> endpoints = bindAll(2, p -> options[p]);
    List<InetSocketAddress> addresses = addresses(endpoints);
    CompletableFuture<NetworkException> acceptor =
        CompletableFuture.supplyAsync(
            () -> assertThrows(NetworkException.class, () -> endpoints.get(1).connect(addresses)));
    long start = System.nanoTime();
    ProtocolMismatchException dialer =
        assertThrows(ProtocolMismatchException.class, () -> endpoints.get(0).connect(addresses));
    long dialerMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    String peerPlaintext = "speaks plaintext (--insecure-plaintext) but this party uses TLS";
    String peerTls = "speaks TLS but this party runs --insecure-plaintext";
    String same = ": give every party the same setting";
    assertEquals(
        name(addresses.get(1), 1) + " " + (tls0 ? peerPlaintext : peerTls) + same,
        dialer.getMessage());
    assertTrue(dialerMillis < 1500, "the dialer failed after " + dialerMillis + " ms");
    String accepted = acceptor.get(20, TimeUnit.SECONDS).getMessage();
    assertTrue(
        accepted.startsWith(
            name(addresses.get(0), 0)
                + " did not connect within 2500 ms (last attempt: refused /127.0.0.1:"),
        accepted);
    assertTrue(accepted.endsWith(": " + (tls0 ? peerTls : peerPlaintext) + same + ")"), accepted);
    endpoints.forEach(e -> assertTrue(isReleased(e), "a failed connect releases all"));
  }

  /**
   * The mismatched peer dials, and gives up, before the accepting party has called connect (a race
   * the test above leaves to the scheduler): the accepting party still names the cause when its
   * connect timeout ends.
   */
  @ParameterizedTest(name = "P0 with TLS: {0}")
  @ValueSource(booleans = {false, true})
  void connect_mismatchedPeerGaveUpBeforeConnect_acceptorStillNamesTheCause(boolean tls0) {
    TransportOptions tls = keys.options(tls0 ? 0 : 1);
    TransportOptions[] options = {
      (tls0 ? tls : plaintext()).withConnectTimeout(Duration.ofSeconds(20)),
      (tls0 ? plaintext() : tls).withConnectTimeout(Duration.ofMillis(800))
    };
    List<TransportNetwork> endpoints = bindAll(2, p -> options[p]);
    List<InetSocketAddress> addresses = addresses(endpoints);
    assertThrows(ProtocolMismatchException.class, () -> endpoints.get(0).connect(addresses));
    String accepted =
        assertThrows(NetworkException.class, () -> endpoints.get(1).connect(addresses))
            .getMessage();
    String cause =
        tls0
            ? "speaks TLS but this party runs --insecure-plaintext"
            : "speaks plaintext (--insecure-plaintext) but this party uses TLS";
    assertTrue(
        accepted.startsWith(
            name(addresses.get(0), 0)
                + " did not connect within 800 ms (last attempt: refused /127.0.0.1:"),
        accepted);
    assertTrue(accepted.endsWith(": " + cause + ": give every party the same setting)"), accepted);
    endpoints.forEach(e -> assertTrue(isReleased(e), "a failed connect releases all"));
  }

  @Test
  void bind_portTaken_failsNamingTheAddressWithTheBindExceptionAsCause() {
    TransportNetwork first = bindAny(0, 2, plaintext());
    try {
      InetSocketAddress taken = first.localAddress();
      UncheckedIOException e =
          assertThrows(UncheckedIOException.class, () -> bind(0, 2, taken, plaintext()));
      assertEquals(
          "P0 cannot listen on 127.0.0.1:"
              + taken.getPort()
              + ": Address already in use (is this party running already, or another program on"
              + " that port?)",
          e.getMessage());
      assertTrue(e.getCause() instanceof BindException, String.valueOf(e.getCause()));
    } finally {
      first.close();
    }
  }

  @Test
  void bind_addressNotOfThisHost_failsNamingItWithTheBindExceptionAsCause() {
    InetSocketAddress elsewhere = new InetSocketAddress("192.0.2.1", 0); // TEST-NET-1: nobody's
    UncheckedIOException e =
        assertThrows(UncheckedIOException.class, () -> bind(1, 2, elsewhere, plaintext()));
    assertEquals(
        "P1 cannot listen on 192.0.2.1:0: Cannot assign requested address (is 192.0.2.1 an address"
            + " of this host?)",
        e.getMessage());
    assertTrue(e.getCause() instanceof BindException, String.valueOf(e.getCause()));
  }

  @Test
  void connect_twoPartiesAtOneAddress_isRefusedNamingBothAndTheAddress() {
    List<TransportNetwork> endpoints = bindAll(3, p -> plaintext());
    try {
      InetSocketAddress at1 = endpoints.get(1).localAddress();
      List<InetSocketAddress> clash =
          List.of(
              endpoints.get(0).localAddress(),
              at1,
              new InetSocketAddress("localhost", at1.getPort()));
      long start = System.nanoTime();
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> endpoints.get(0).connect(clash));
      assertEquals(
          "P1 and P2 have the same address, localhost:"
              + at1.getPort()
              + ": every party needs a host:port of its own",
          e.getMessage());
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2), "refused at once");
    } finally {
      endpoints.forEach(TransportNetwork::close);
    }
  }

  @Test
  void refusals_floodOfBadConnections_logsOneWarningThenASummary() throws Exception {
    int flood = 40;
    TransportNetwork party1 = bindAny(1, 2, hostileOptions());
    try (LogCapture log = LogCapture.start()) {
      for (int i = 0; i < flood; i++) {
        try (HostilePeer stranger = new HostilePeer(party1.localAddress())) {
          stranger.write(HostilePeer.prefix(WireFormat.HEADER_BYTES, WireFormat.DATA, 0));
          stranger.awaitClosedByPeer();
        }
      }
      String reason = "sent a frame before its hello";
      log.await(Level.DEBUG, reason, flood - 1, 5000); // the last ones log as they close
      assertEquals(1, log.count(Level.WARN, reason), "one WARN line for the first refusal");
      assertEquals(flood - 1, log.count(Level.DEBUG, reason), "the others at DEBUG");
      party1.close();
      assertEquals(
          1,
          log.count(Level.WARN, "refused " + (flood - 1) + " more connections in the last "),
          "a summary with the count when the party closes");
    } finally {
      party1.close();
    }
  }

  @Test
  void handshake_silentConnection_isClosedAfterTheHandshakeTimeout() throws Exception {
    TransportNetwork party1 =
        bindAny(1, 2, keys.options(1).withHandshakeTimeout(Duration.ofMillis(400)));
    try (Socket silent = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      silent.setSoTimeout(10_000);
      long start = System.nanoTime();
      try {
        assertEquals(0, silent.getInputStream().readAllBytes().length, "closed without a word");
      } catch (SocketException reset) {
        // closed with a reset: closed all the same
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis >= 350 && millis < 1400, "closed after " + millis + " ms");
    } finally {
      party1.close();
    }
  }

  // Failures during the rounds.

  @Test
  void exchange_silentPeer_failsNamingItAfterTheTimeoutAndAgainAfter() {
    List<TransportNetwork> endpoints =
        bindAll(2, p -> plaintext().withReceiveTimeout(Duration.ofMillis(300)));
    List<InetSocketAddress> addresses = addresses(endpoints);
    List<Channel> channels = PartyThreads.each(2, p -> endpoints.get(p).connect(addresses));
    try {
      long start = System.nanoTime();
      Channel t1 = channels.get(1);
      NetworkException e =
          assertThrows(NetworkException.class, () -> t1.exchange(new long[2][1], new int[] {1, 1}));
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      String expected = name(addresses.get(0), 0) + " sent nothing for round 0 within 300 ms";
      assertEquals(expected, e.getMessage());
      assertFalse(e instanceof PeerAbortedException, "a silent peer did not abort");
      assertTrue(millis >= 300 && millis < 3000, millis + " ms");
      NetworkException again =
          assertThrows(NetworkException.class, () -> t1.exchange(new long[2][1], new int[] {1, 1}));
      assertFailedAgain(expected, again.getMessage());
    } finally {
      channels.forEach(Channel::close);
    }
  }

  /**
   * Frames of several MiB (a large batch's round; the Netty transport writes them in parts) cross
   * over TLS word for word, in both directions and for rounds of different sizes.
   */
  @Test
  void exchange_framesOfSeveralMebibytes_arriveWordForWord() {
    int parties = 3;
    List<TransportNetwork> endpoints =
        bindAll(parties, p -> keys.options(p).withReceiveTimeout(Duration.ofSeconds(60)));
    List<InetSocketAddress> addresses = addresses(endpoints);
    List<Channel> channels = PartyThreads.each(parties, p -> endpoints.get(p).connect(addresses));
    try {
      int[] sizes = {300_001, 131_072, 262_145};
      for (int r = 0; r < sizes.length; r++) {
        int round = r;
        int words = sizes[r];
        List<long[][]> received =
            PartyThreads.each(
                parties,
                p -> {
                  long[][] out = new long[parties][];
                  int[] lengths = new int[parties];
                  for (int q = 0; q < parties; q++) {
                    out[q] = bigFrame(p, q, round, words);
                    lengths[q] = q == p ? 0 : words;
                  }
                  return channels.get(p).exchange(out, lengths);
                });
        for (int p = 0; p < parties; p++) {
          for (int q = 0; q < parties; q++) {
            if (q != p) {
              assertArrayEquals(
                  bigFrame(q, p, round, words), received.get(p)[q], "P" + q + " -> P" + p);
            }
          }
        }
      }
    } finally {
      channels.forEach(Channel::close);
    }
  }

  // Rounds that leave out frames (SparseRoundsContract, shared with the in-memory transport).

  /** A check of the sparse-rounds contract, given P0's name as this transport words it. */
  @FunctionalInterface
  private interface SparseCheck {
    void run(SparseRoundsContract contract, String p0) throws Exception;
  }

  private void sparse(SparseCheck check) throws Exception {
    List<TransportNetwork> endpoints =
        bindAll(3, p -> keys.options(p).withReceiveTimeout(Duration.ofSeconds(20)));
    List<InetSocketAddress> addresses = addresses(endpoints);
    List<Channel> channels = PartyThreads.each(3, p -> endpoints.get(p).connect(addresses));
    SparseRoundsContract contract = new SparseRoundsContract(channels);
    try {
      check.run(contract, name(addresses.get(0), 0));
    } finally {
      channels.forEach(Channel::close);
      contract.close();
    }
  }

  @Test
  void sparseRounds_randomLinks_onlyTheCarriedFramesCross() throws Exception {
    sparse((contract, p0) -> contract.randomLinks_onlyTheCarriedFramesCross(2211, 40));
  }

  @Test
  void sparseRounds_frameWhereNoneWasDue_failsNamingTheSender() throws Exception {
    sparse(SparseRoundsContract::frameWhereNoneWasDue_failsNamingTheSender);
  }

  @Test
  void sparseRounds_dueFrameLeftOut_failsNamingTheSender() throws Exception {
    sparse(SparseRoundsContract::dueFrameLeftOut_failsNamingTheSender);
  }

  @Test
  void sparseRounds_wordsInAnAddedFrame_failNamingTheSender() throws Exception {
    sparse(SparseRoundsContract::wordsInAnAddedFrame_failNamingTheSender);
  }

  private static long[] bigFrame(int from, int to, int round, int words) {
    return new java.util.SplittableRandom(from * 1_000_003L + to * 1009L + round)
        .longs(words)
        .toArray();
  }

  @Test
  void exchange_peerAborts_othersFailPromptlyWithItsReason() {
    List<TransportNetwork> endpoints =
        bindAll(3, p -> keys.options(p).withReceiveTimeout(Duration.ofSeconds(30)));
    List<InetSocketAddress> addresses = addresses(endpoints);
    List<Channel> channels = PartyThreads.each(3, p -> endpoints.get(p).connect(addresses));
    try {
      for (int r = 0; r < 3; r++) {
        PartyThreads.each(
            3, p -> channels.get(p).exchange(new long[][] {{p}, {p}, {p}}, new int[3]));
      }
      long start = System.nanoTime();
      channels.get(0).abort("MAC check failed");
      for (int p = 1; p < 3; p++) {
        Channel channel = channels.get(p);
        String expected = name(addresses.get(0), 0) + " aborted in round 3: MAC check failed";
        // Typed, so that a caller can tell a peer that gave up from one that vanished; every
        // later exchange fails the same way.
        for (int attempt = 0; attempt < 2; attempt++) {
          PeerAbortedException e =
              assertThrows(
                  PeerAbortedException.class, () -> channel.exchange(new long[3][1], new int[3]));
          assertEquals(expected, e.getMessage());
        }
      }
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "failed promptly");
    } finally {
      channels.forEach(Channel::close);
    }
  }

  /**
   * A party whose process did not run for a minute (as under SIGSTOP: its pause watch ticks a
   * minute late) finds its peer gone, and says that it was paused itself rather than blaming the
   * peer; what it saw comes after.
   */
  @Test
  void exchange_afterThisPartyWasPaused_saysSoBeforeBlamingThePeer() throws Exception {
    AtomicLong clock = new AtomicLong(System.nanoTime());
    PauseWatch stalled = new PauseWatch(clock::get);
    PauseWatch.useShared(stalled);
    List<Channel> channels = new ArrayList<>();
    try {
      List<TransportNetwork> endpoints = bindAll(2, p -> plaintext());
      List<InetSocketAddress> addresses = addresses(endpoints);
      CompletableFuture<Channel> connecting0 =
          CompletableFuture.supplyAsync(() -> endpoints.get(0).connect(addresses));
      Channel t1 = endpoints.get(1).connect(addresses);
      channels.add(connecting0.get(20, TimeUnit.SECONDS));
      channels.add(t1);
      clock.addAndGet(
          TimeUnit.SECONDS.toNanos(60) + TimeUnit.MILLISECONDS.toNanos(PauseWatch.TICK_MILLIS));
      stalled.tick(); // a minute late: nothing in the process ran meanwhile
      channels.get(1).close(); // the peer gave up on P0
      Channel t0 = channels.get(0);
      NetworkException e =
          assertThrows(NetworkException.class, () -> t0.exchange(new long[2][1], new int[] {1, 1}));
      assertTrue(
          e.getMessage()
              .startsWith(
                  "this party was paused for 60 s (SIGSTOP, a debugger, swapping?), longer than"
                      + " its peers wait for it (15000 ms): they may have given up on it; what it"
                      + " saw then: "
                      + name(addresses.get(1), 1)
                      + " "),
          e.getMessage());
    } finally {
      PauseWatch.useShared(null);
      channels.forEach(Channel::close);
    }
  }

  // A corrupt peer's bytes.

  /** What a rogue P0 sends after its hello, and how the honest P1 words its failure. */
  protected enum Breach {
    OVERSIZED("frame of 1048576 bytes exceeds the limit of 1024 bytes") {
      @Override
      void write(DataOutputStream out) throws IOException {
        out.writeInt(1 << 20); // only the length field of a frame far above the limit
      }
    },
    ROUND_BEFORE_THE_FIRST("frame for round -1 arrived when round 0 or later was due") {
      @Override
      void write(DataOutputStream out) throws IOException {
        header(out, 8, WireFormat.DATA, -1);
        out.writeLong(7);
      }
    },
    MISALIGNED("data frame payload of 5 bytes is not a whole number of words") {
      @Override
      void write(DataOutputStream out) throws IOException {
        header(out, 5, WireFormat.DATA, 0);
        out.write(new byte[5]);
      }
    },
    UNKNOWN_CHANNEL("frame on unknown channel 7") {
      @Override
      void write(DataOutputStream out) throws IOException {
        header(out, 0, 7, 0);
      }
    },
    TRUNCATED("connection closed inside a frame (20 bytes of it arrived)") {
      @Override
      void write(DataOutputStream out) throws IOException {
        header(out, 32, WireFormat.DATA, 0); // four words, of which one arrives
        out.writeLong(42);
      }
    };

    final String reason;

    Breach(String reason) {
      this.reason = reason;
    }

    abstract void write(DataOutputStream out) throws IOException;

    static void header(DataOutputStream out, int payload, int channel, int round)
        throws IOException {
      out.writeInt(WireFormat.HEADER_BYTES + payload);
      out.writeInt(channel);
      out.writeInt(round);
    }
  }

  @ParameterizedTest
  @EnumSource(Breach.class)
  void exchange_peerBreaksTheFrameFormat_failsNamingPeerAndReasonAndCloses(Breach breach)
      throws Exception {
    TransportNetwork party1 =
        bindAny(
            1, 2, plaintext().withMaxFrameBytes(1024).withReceiveTimeout(Duration.ofSeconds(10)));
    try (Socket socket = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      Breach.header(out, 8, WireFormat.HELLO, 0);
      out.writeLong(WireFormat.MAGIC);
      breach.write(out);
      out.flush();
      if (breach == Breach.TRUNCATED) {
        socket.shutdownOutput();
      }
      Channel channel = party1.connect(List.of(NOBODY, party1.localAddress()));
      try {
        long start = System.nanoTime();
        NetworkException e =
            assertThrows(
                NetworkException.class, () -> channel.exchange(new long[2][1], new int[2]));
        assertEquals(
            "P0 (127.0.0.1:9) broke the frame format: " + breach.reason + "; connection closed",
            e.getMessage());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "failed promptly");
        byte[] answer = socket.getInputStream().readAllBytes(); // P1's hello first, then the end
        assertTrue(answer.length >= 20, answer.length + " bytes");
        assertEquals(WireFormat.HELLO, ByteBuffer.wrap(answer).getInt(4), "a hello");
        assertEquals(1, ByteBuffer.wrap(answer).getInt(8), "from P1");
        assertAnswerToBrokenPeer(breach, answer);
      } finally {
        channel.close();
      }
    }
  }

  @Test
  void exchange_peerSaysHelloTwice_failsNamingIt() throws Exception {
    TransportNetwork party1 = bindAny(1, 2, plaintext());
    try (Socket socket = new Socket("127.0.0.1", party1.localAddress().getPort())) {
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      for (int i = 0; i < 2; i++) {
        Breach.header(out, 8, WireFormat.HELLO, 0);
        out.writeLong(WireFormat.MAGIC);
      }
      out.flush();
      Channel channel = party1.connect(List.of(NOBODY, party1.localAddress()));
      try {
        NetworkException e =
            assertThrows(
                NetworkException.class, () -> channel.exchange(new long[2][1], new int[2]));
        assertEquals("P0 (127.0.0.1:9) sent a second hello; connection closed", e.getMessage());
      } finally {
        channel.close();
      }
    }
  }

  private static TransportOptions hostileOptions() {
    return TransportOptions.plaintextInsecure()
        .withHandshakeTimeout(Duration.ofSeconds(3))
        .withConnectTimeout(Duration.ofSeconds(20));
  }

  @Test
  void prefixOfAHugeFrameBeforeTheHello_isRefusedAtOnceAndPinsNothing() throws Exception {
    TransportNetwork party1 = bindAny(1, 2, hostileOptions());
    try {
      LongSupplier allocations = readerAllocations(party1, false);
      long before = allocations.getAsLong();
      long start = System.nanoTime();
      try (HostilePeer p0 = new HostilePeer(party1.localAddress())) {
        p0.write(HostilePeer.prefix(1 << 28, WireFormat.DATA, 0));
        p0.awaitClosedByPeer();
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      long allocated = allocations.getAsLong() - before;
      assertTrue(allocated < BOUND, allocated + " bytes allocated by P1's verifying threads");
      assertTrue(millis < 2000, "refused after " + millis + " ms, not at the handshake timeout");
    } finally {
      party1.close();
    }
  }

  @Test
  void prefixOfAHugeFrameAfterTheHello_pinsOnlyWhatArrives() throws Exception {
    TransportNetwork party1 = bindAny(1, 2, hostileOptions());
    try (HostilePeer p0 = new HostilePeer(party1.localAddress())) {
      CompletableFuture<Channel> connecting =
          CompletableFuture.supplyAsync(
              () -> party1.connect(List.of(NOBODY, party1.localAddress())));
      p0.hello(0);
      Channel channel = connecting.get(20, TimeUnit.SECONDS);
      LongSupplier allocations = readerAllocations(party1, true);
      long before = allocations.getAsLong();
      p0.write(HostilePeer.prefix(1 << 28, WireFormat.DATA, 0));
      p0.write(new byte[4096]);
      p0.finishSending();
      NetworkException e =
          assertThrows(
              NetworkException.class,
              () -> channel.exchange(new long[][] {{7}, null}, new int[] {1, 0}));
      long allocated = allocations.getAsLong() - before;
      assertEquals(
          "P0 (127.0.0.1:9) broke the frame format: connection closed inside a frame (4108 bytes"
              + " of it arrived); connection closed",
          e.getMessage());
      assertTrue(allocated < BOUND, allocated + " bytes allocated by P1's reading thread");
    } finally {
      party1.close();
    }
  }
}
