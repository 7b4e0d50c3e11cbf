package dev.cohort.clients;

import dev.cohort.bgw.BgwSuite;
import dev.cohort.clientlink.ClientLink;
import dev.cohort.clientlink.ClientLinkOptions;
import dev.cohort.clientlink.ClientLinkServer;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Field;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.spdz.SpdzSuite;
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
import java.util.stream.Stream;

/**
 * An input-client deployment in one JVM: n BGW (or SPDZ) servers as threads, meshed over Netty with
 * TLS on loopback, each serving clients on its own TLS client port, and the means for many clients
 * to connect with their own certificates and connections (sharing one event-loop group, as a
 * simulation of many devices must). For the demo, the benchmarks and tests; a real deployment runs
 * {@code cohort server} on each host and {@code cohort client} on each device.
 *
 * <p>Keys: a directory of {@code cohort keys} files with client certificates, or generated into a
 * temporary directory that {@link #close} deletes.
 */
public final class LocalDeployment implements AutoCloseable {

  /**
   * The client link's options here: thousands of handshakes start at once on the same cores as the
   * servers, so one may wait in the accept queue far longer than on a device of its own.
   */
  private static final ClientLinkOptions LINK =
      ClientLinkOptions.defaults().withHandshakeTimeout(Duration.ofSeconds(120));

  private final Path keys;
  private final boolean ownKeys;
  private final LocalParties parties;
  private final InputServer[] servers;
  private final ClientLinkServer[] links;
  private final List<InetSocketAddress> clientAddresses = new ArrayList<>();
  private final EventLoopGroup clientGroup;

  /** The settings of a local deployment. */
  public record Settings(
      int servers,
      Field field,
      Shape shape,
      int clients,
      int closeAfter,
      Duration deadline,
      Path keys,
      int clientThreads) {

    /** Servers, field and shape; {@code clients} certificates; sessions close at the deadline. */
    public static Settings of(int servers, Field field, Shape shape, int clients) {
      return new Settings(servers, field, shape, clients, 0, Duration.ofSeconds(10), null, 2);
    }

    public Settings closeAfter(int k) {
      return new Settings(servers, field, shape, clients, k, deadline, keys, clientThreads);
    }

    public Settings deadline(Duration d) {
      return new Settings(servers, field, shape, clients, closeAfter, d, keys, clientThreads);
    }

    /** Keys from {@code dir} (with client certificates) instead of generated ones. */
    public Settings keys(Path dir) {
      return new Settings(servers, field, shape, clients, closeAfter, deadline, dir, clientThreads);
    }

    /** Event-loop threads that all clients share. */
    public Settings clientThreads(int threads) {
      return new Settings(servers, field, shape, clients, closeAfter, deadline, keys, threads);
    }
  }

  private LocalDeployment(Settings s, Long insecureDealerSeed) throws IOException {
    this.ownKeys = s.keys() == null;
    this.keys = ownKeys ? Files.createTempDirectory("cohort-deployment-keys") : s.keys();
    if (ownKeys) {
      Certificates.generate(keys, s.servers());
      Certificates.generateClients(keys, s.clients());
    }
    this.servers = new InputServer[s.servers()];
    this.links = new ClientLinkServer[s.servers()];
    this.parties =
        LocalParties.builder(s.servers())
            .mesh(Loopback.tls(Transport.NETTY, keys))
            .deadline(Duration.ofDays(1))
            .standing()
            .open();
    parties.onChannels(
        (p, channel) -> {
          boolean spdz = insecureDealerSeed != null;
          Engine engine =
              new Engine(
                  spdz
                      ? SpdzSuite.insecureFactory(s.field(), insecureDealerSeed)
                      : BgwSuite.factory(s.field()),
                  channel,
                  EngineConfig.defaults());
          InputServer.Builder b =
              (spdz
                      ? InputServer.spdz(engine, channel, s.shape())
                      : InputServer.bgw(engine, channel, s.shape()))
                  .deadline(s.deadline());
          if (s.closeAfter() > 0) {
            b.closeAfter(s.closeAfter());
          }
          servers[p] = b.build();
          links[p] =
              TlsClients.serve(
                  servers[p],
                  new InetSocketAddress("127.0.0.1", 0),
                  TlsIdentity.load(keys, p),
                  LINK);
          return null;
        });
    for (ClientLinkServer l : links) {
      clientAddresses.add(l.localAddress());
    }
    this.clientGroup =
        NettyIo.newGroup(s.clientThreads(), new DefaultThreadFactory("cohort-client-link", true));
  }

  /** Starts the servers (and generates keys unless the settings name a directory). */
  public static LocalDeployment start(Settings settings) {
    return start(settings, null);
  }

  /**
   * SPDZ servers instead of BGW, their material from the in-process dealer seeded with {@code
   * seed}: INSECURE (whoever knows the seed knows every secret); for benchmarks and demos.
   */
  public static LocalDeployment startSpdzInsecureDealer(Settings settings, long seed) {
    return start(settings, seed);
  }

  private static LocalDeployment start(Settings settings, Long insecureDealerSeed) {
    try {
      return new LocalDeployment(settings, insecureDealerSeed);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a keys directory", e);
    }
  }

  public InputServer server(int i) {
    return servers[i];
  }

  public ClientLinkServer link(int i) {
    return links[i];
  }

  /** Where the servers take clients, in server order. */
  public List<InetSocketAddress> clientAddresses() {
    return clientAddresses;
  }

  /** Client {@code j}'s TLS material from the deployment's keys. */
  public TlsIdentity clientIdentity(int j) {
    return TlsIdentity.loadClient(keys, j);
  }

  /** Connects a client with {@code identity} to every server, on the shared event loops. */
  public CompletableFuture<ClientLink> connect(TlsIdentity identity) {
    return ClientLink.connectAsync(clientAddresses, identity, LINK, clientGroup);
  }

  /**
   * Runs the next session at every server (on the servers' threads); the future completes with
   * every server's outcome once the session closed and its computation ran.
   */
  public <T> CompletableFuture<List<SessionOutcome<T>>> session(SessionComputation<T> computation) {
    return CompletableFuture.supplyAsync(
        () -> parties.onChannels((p, channel) -> servers[p].runSession(computation)));
  }

  @Override
  public void close() {
    for (ClientLinkServer l : links) {
      if (l != null) {
        l.close();
      }
    }
    clientGroup.shutdownGracefully(0, 1, java.util.concurrent.TimeUnit.SECONDS);
    parties.close();
    if (ownKeys) {
      try (Stream<Path> files = Files.walk(keys)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException("cannot delete the generated keys in " + keys, e);
      }
    }
  }
}
