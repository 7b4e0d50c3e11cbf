package dev.cohort.transport;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * One party's endpoint of the full mesh, whichever transport carries it: it listens from the moment
 * it is bound, and {@link #connect} dials the higher peers, admits the lower ones by {@link
 * PeerAdmission}, and returns the channel once every peer has proved its id. Invariant: a channel
 * is returned only when every peer holds exactly one admitted connection.
 */
public interface TransportNetwork extends AutoCloseable {

  /** Where this party listens (the port picked when it was bound on port 0). */
  InetSocketAddress localAddress();

  /** This party's index (the same as {@code Channel.myId()}). */
  int myId();

  int parties();

  /**
   * Connects to every peer ({@code addresses} in party order; this party's entry is not used) and
   * returns the channel; throws naming the first peer missing at the connect timeout, or a peer
   * that failed to prove its id, and the network is closed then.
   */
  TransportChannel connect(List<InetSocketAddress> addresses);

  /** Closes every connection and stops every thread of this party's transport. */
  @Override
  void close();
}
