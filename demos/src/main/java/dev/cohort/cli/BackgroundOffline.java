package dev.cohort.cli;

import dev.cohort.api.NetworkException;
import dev.cohort.field.Field;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.LoopbackMesh;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.net.Channel;
import dev.cohort.offline.OfflinePhase;
import dev.cohort.spdz.PreprocessingSource;
import dev.cohort.spdz.SpdzPreprocessing;
import dev.cohort.transport.ProtocolMismatchException;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code --offline-phase} of a demo: the parties make their SPDZ material among themselves while
 * the demo runs ({@link OfflinePhase#inBackground}), over a mesh of their own beside the online
 * phase's. Two kinds of mesh: with the parties in one JVM, a second loopback mesh (TLS with the
 * demo's keys unless the demo runs in plaintext, {@link #loopback}); with one party per process, a
 * second mesh of the same parties with the same certificates, at the offline ports of the parties
 * file ({@link #deployment}). Close it after the run: that stops the producers and closes the mesh.
 */
final class BackgroundOffline implements PreprocessingSource, AutoCloseable {

  /** Where the parties' offline channels come from. */
  private interface Mesh {
    /** Party {@code party}'s offline channel: blocks until every party has connected. */
    Channel connect(int party);

    void close();
  }

  private final Mesh mesh;
  private final OfflinePhase.Background background;
  private final String description;

  private BackgroundOffline(Mesh mesh, String description) {
    this.mesh = mesh;
    this.description = description;
    this.background = OfflinePhase.inBackground(mesh::connect);
  }

  /** Every party of one JVM, on a loopback mesh of their own. */
  static BackgroundOffline loopback(Transport transport, boolean plaintext) {
    Loopback loopback = plaintext ? Loopback.insecurePlaintext(transport) : Loopback.tls(transport);
    return new BackgroundOffline(new LoopbackOffline(loopback), "on a mesh of their own");
  }

  /**
   * This process's party {@code self} of a deployment, which dials the other parties' offline
   * addresses ({@code addresses}, in party order) when the suite opens its material. It listens at
   * its own from {@link #listen} on, or from then.
   *
   * @param file the parties file the addresses come from, named in errors
   */
  static BackgroundOffline deployment(
      Transport transport,
      int self,
      List<InetSocketAddress> addresses,
      TransportOptions options,
      Path file) {
    return new BackgroundOffline(
        new DeploymentOffline(transport, self, addresses, options, file),
        "over its own mesh at the offline ports of " + file);
  }

  /**
   * Starts listening at this party's offline address, when there is one: called before the online
   * phase connects, so that a port that is taken is refused before any peer waits for this party.
   */
  void listen() {
    if (mesh instanceof DeploymentOffline d) {
      d.listen();
    }
  }

  @Override
  public SpdzPreprocessing open(Field field, int party, int parties) {
    if (mesh instanceof LoopbackOffline l) {
      l.bind(parties);
    }
    return background.open(field, party, parties);
  }

  /** Where the producers run, for the report: "on a mesh of their own", ... */
  String description() {
    return description;
  }

  /** How long the online phase waited for material, summed over the parties of this process. */
  long waitNanos() {
    return background.waitNanos();
  }

  /** Triples the producers made, summed over the parties of this process. */
  long triplesMade() {
    return background.triplesMade();
  }

  /** Stops the producers (each after its current round), then closes the mesh. */
  @Override
  public void close() {
    try {
      background.close();
    } finally {
      mesh.close();
    }
  }

  /** The parties of one JVM: a second loopback, bound when the first party opens its material. */
  private static final class LoopbackOffline implements Mesh {
    private final Loopback loopback;
    private LoopbackMesh bound;

    LoopbackOffline(Loopback loopback) {
      this.loopback = loopback;
    }

    synchronized void bind(int parties) {
      if (bound == null) {
        bound = loopback.bind(parties);
      }
    }

    @Override
    public Channel connect(int party) {
      LoopbackMesh m;
      synchronized (this) {
        m = bound;
      }
      return m.connect(party);
    }

    @Override
    public void close() {
      loopback.close();
    }
  }

  /** One party of a deployment: its own network at the offline ports, bound once. */
  private static final class DeploymentOffline implements Mesh {
    private final Transport transport;
    private final int self;
    private final List<InetSocketAddress> addresses;
    private final TransportOptions options;
    private final Path file;
    private TransportNetwork network;
    private boolean closed;

    DeploymentOffline(
        Transport transport,
        int self,
        List<InetSocketAddress> addresses,
        TransportOptions options,
        Path file) {
      this.transport = transport;
      this.self = self;
      this.addresses = addresses;
      this.options = options;
      this.file = file;
    }

    synchronized TransportNetwork listen() {
      if (closed) {
        throw new IllegalStateException("the offline phase's mesh is closed");
      }
      if (network == null) {
        try {
          network = transport.bind(self, addresses.size(), addresses.get(self), options);
        } catch (UncheckedIOException e) {
          if (e.getCause() instanceof BindException) {
            throw new UncheckedIOException(
                "the offline phase: "
                    + e.getMessage()
                    + "; give P"
                    + self
                    + " a free offline port ('"
                    + PartiesFile.OFFLINE_FIELD
                    + "PORT') in "
                    + file,
                (BindException) e.getCause());
          }
          throw e;
        }
      }
      return network;
    }

    @Override
    public Channel connect(int party) {
      TransportNetwork bound = listen();
      try {
        return bound.connect(addresses);
      } catch (ProtocolMismatchException e) {
        throw e;
      } catch (NetworkException e) {
        throw new NetworkException(
            "the offline phase's mesh: "
                + e.getMessage()
                + " (every party needs --offline-phase and its offline port)",
            e);
      }
    }

    @Override
    public synchronized void close() {
      closed = true;
      if (network != null) {
        network.close();
      }
    }
  }
}
