package dev.cohort.harness;

import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import java.time.Duration;

/**
 * How the parties of a {@link LocalParties} reach each other: one set of endpoints, bound and ready
 * for every party to connect once. Invariant: {@link #connect} is called on each party's own
 * thread, for all parties at once (a real transport returns a channel only when every peer has
 * connected), and {@link #close} releases whatever the parties did not take over by connecting.
 *
 * <p>{@link #inMemory} is the in-memory transport; the network module binds Netty or socket
 * transports on loopback ({@code dev.cohort.harness.loopback.Loopback}).
 */
public interface Mesh extends AutoCloseable {

  int parties();

  /** Party {@code party}'s channel to every peer; blocks until the whole mesh is connected. */
  Channel connect(int party);

  /** Releases the endpoints; the channels handed out close on their own. */
  @Override
  void close();

  /**
   * Binds fresh meshes: one per run for one-shot parties, one for their whole life for standing
   * ones. Closing the factory releases what its meshes share (keys generated for them).
   */
  @FunctionalInterface
  interface Factory extends AutoCloseable {

    Mesh bind(int parties);

    @Override
    default void close() {}
  }

  /** The in-memory transport, where a peer that sends nothing for {@code timeout} is named. */
  static Factory inMemory(Duration timeout) {
    return parties -> {
      InMemoryNetwork network = new InMemoryNetwork(parties, timeout);
      return new Mesh() {
        @Override
        public int parties() {
          return parties;
        }

        @Override
        public Channel connect(int party) {
          return network.channel(party);
        }

        @Override
        public void close() {}
      };
    };
  }
}
