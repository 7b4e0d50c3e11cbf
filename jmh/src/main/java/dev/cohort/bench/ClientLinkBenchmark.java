package dev.cohort.bench;

import dev.cohort.clientlink.ClientLink;
import dev.cohort.clientlink.ClientLinkOptions;
import dev.cohort.clientlink.ClientLinkServer;
import dev.cohort.transport.NettyIo;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The client link's start-up cost: {@code clients} input clients (1000) connect to 3 client link
 * servers in this JVM, over TLS 1.3 on loopback (BoringSSL where it loads, ECDSA P-256), that is
 * 3000 handshakes, and each sends one small frame to every server and waits for its echo. One
 * invocation is all of that, from building each client's TLS context to the last echo: the time a
 * session's clients need before any protocol work.
 *
 * <p>All clients share one event-loop group of {@code clientThreads} threads, as a simulation of
 * many devices in one JVM would; each server has {@code serverThreads}. Keys, identities and
 * servers are made once per trial; closing the links after an invocation is not measured.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar ClientLinkBenchmark}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 10)
@Fork(
    value = 1,
    jvmArgs = {"-Xmx1g"})
public class ClientLinkBenchmark {

  static final int SERVERS = 3;
  static final Duration WAIT = Duration.ofSeconds(60);

  /** Three servers that echo every frame, the clients' identities, and the shared event loop. */
  @State(Scope.Benchmark)
  public static class Deployment {

    @Param({"1000"})
    public int clients;

    @Param({"1"})
    public int clientThreads;

    @Param({"2"})
    public int serverThreads;

    Path keys;
    TlsIdentity[] identities;
    final List<ClientLinkServer> servers = new ArrayList<>();
    final List<InetSocketAddress> addresses = new ArrayList<>();
    EventLoopGroup group;
    ClientLinkOptions options;
    final List<ClientLink> links = new ArrayList<>();

    @Setup(Level.Trial)
    public void start() throws IOException {
      keys = Files.createTempDirectory("cohort-clientlink-bench");
      Certificates.generate(keys, SERVERS);
      Certificates.generateClients(keys, clients);
      identities = new TlsIdentity[clients];
      for (int c = 0; c < clients; c++) {
        identities[c] = TlsIdentity.loadClient(keys, c);
      }
      options = ClientLinkOptions.defaults().withEventLoopThreads(serverThreads);
      for (int s = 0; s < SERVERS; s++) {
        Echo echo = new Echo();
        echo.server =
            ClientLinkServer.start(
                new InetSocketAddress("127.0.0.1", 0), TlsIdentity.load(keys, s), options, echo);
        servers.add(echo.server);
        addresses.add(echo.server.localAddress());
      }
      group = NettyIo.newGroup(clientThreads, new DefaultThreadFactory("clients", true));
    }

    /** Closes the invocation's links and waits until every server has seen them go. */
    @TearDown(Level.Invocation)
    public void closeLinks() throws InterruptedException {
      links.forEach(ClientLink::close);
      links.clear();
      for (ClientLinkServer server : servers) {
        while (server.connectedClients() > 0) {
          Thread.sleep(5);
        }
      }
    }

    @TearDown(Level.Trial)
    public void stop() throws IOException {
      servers.forEach(ClientLinkServer::close);
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
      try (Stream<Path> files = Files.walk(keys)) {
        files.sorted(Comparator.reverseOrder()).forEach(Deployment::delete);
      }
    }

    private static void delete(Path file) {
      try {
        Files.delete(file);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** A server's handler that sends every frame back. */
  static final class Echo implements ClientLinkServer.Handler {
    volatile ClientLinkServer server;

    @Override
    public void connected(int client) {}

    @Override
    public void message(int client, byte[] payload) {
      server.send(client, payload);
    }

    @Override
    public void disconnected(int client, Throwable causeOrNull) {}
  }

  @Benchmark
  public int connectAndRoundTrip(Deployment d) {
    List<CompletableFuture<ClientLink>> connecting = new ArrayList<>(d.clients);
    for (int c = 0; c < d.clients; c++) {
      connecting.add(ClientLink.connectAsync(d.addresses, d.identities[c], d.options, d.group));
    }
    for (CompletableFuture<ClientLink> link : connecting) {
      d.links.add(link.join());
    }
    byte[] frame = new byte[32];
    for (ClientLink link : d.links) {
      for (int s = 0; s < SERVERS; s++) {
        link.send(s, frame);
      }
    }
    int echoes = 0;
    for (ClientLink link : d.links) {
      for (int s = 0; s < SERVERS; s++) {
        echoes += link.receive(s, WAIT).length == frame.length ? 1 : 0;
      }
    }
    if (echoes != SERVERS * d.clients) {
      throw new IllegalStateException(echoes + " echoes of " + SERVERS * d.clients);
    }
    return echoes;
  }
}
