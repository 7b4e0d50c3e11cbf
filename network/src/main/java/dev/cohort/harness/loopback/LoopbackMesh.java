package dev.cohort.harness.loopback;

import dev.cohort.harness.Mesh;
import dev.cohort.transport.TransportChannel;
import dev.cohort.transport.TransportNetwork;
import dev.cohort.transport.TransportOptions;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;

/**
 * n parties of one transport, each bound on 127.0.0.1 at a port of its own (port 0: the kernel
 * picks, nothing is probed). Invariant: every party listens from the moment the mesh exists, so the
 * parties may connect in any order; {@link #close} releases every listener, connection and thread
 * of every party, connected or not.
 */
public final class LoopbackMesh implements Mesh {

  private final List<TransportNetwork> networks;
  private final List<InetSocketAddress> addresses;
  private final AtomicReferenceArray<TransportChannel> channels; // as connected

  private LoopbackMesh(List<TransportNetwork> networks) {
    this.networks = List.copyOf(networks);
    this.channels = new AtomicReferenceArray<>(networks.size());
    List<InetSocketAddress> listening = new ArrayList<>();
    for (TransportNetwork network : networks) {
      listening.add(network.localAddress());
    }
    this.addresses = List.copyOf(listening);
  }

  /** Binds {@code parties} parties with {@code options.apply(p)}; on failure, none stays bound. */
  static LoopbackMesh bind(
      int parties, Transport transport, IntFunction<TransportOptions> options) {
    List<TransportNetwork> networks = new ArrayList<>();
    try {
      for (int p = 0; p < parties; p++) {
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        networks.add(transport.bind(p, parties, any, options.apply(p)));
      }
    } catch (RuntimeException e) {
      networks.forEach(TransportNetwork::close);
      throw e;
    }
    return new LoopbackMesh(networks);
  }

  @Override
  public int parties() {
    return networks.size();
  }

  /** Where each party listens, in party order. */
  public List<InetSocketAddress> addresses() {
    return addresses;
  }

  /** Party {@code party}'s endpoint, for what only its transport knows. */
  public TransportNetwork network(int party) {
    return networks.get(party);
  }

  @Override
  public TransportChannel connect(int party) {
    TransportChannel channel = networks.get(party).connect(addresses);
    channels.set(party, channel);
    return channel;
  }

  /**
   * Closes every channel connected here (as its own {@code close} does, after a failure too) and
   * every endpoint that never connected.
   */
  @Override
  public void close() {
    for (int p = 0; p < networks.size(); p++) {
      TransportChannel channel = channels.get(p);
      if (channel != null) {
        channel.close();
      }
      networks.get(p).close();
    }
  }
}
