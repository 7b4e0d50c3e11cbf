package dev.cohort.bench;

import dk.alexandra.fresco.framework.network.Network;
import java.util.Arrays;

/**
 * A FRESCO {@link Network} that counts the payload bytes its party sends to each peer (FRESCO ids
 * from 1; messages to the party itself are not counted). Like the network it wraps, one party
 * thread uses it.
 */
final class CountingNetwork implements Network {

  private final Network network;
  private final int self;
  private final long[] sent; // [id - 1]

  CountingNetwork(Network network, int self) {
    this.network = network;
    this.self = self;
    this.sent = new long[network.getNoOfParties()];
  }

  @Override
  public void send(int partyId, byte[] data) {
    if (partyId != self) {
      sent[partyId - 1] += data.length;
    }
    network.send(partyId, data);
  }

  @Override
  public byte[] receive(int partyId) {
    return network.receive(partyId);
  }

  @Override
  public int getNoOfParties() {
    return network.getNoOfParties();
  }

  /** Starts counting afresh. */
  void reset() {
    Arrays.fill(sent, 0);
  }

  /**
   * Bytes sent to each peer since the last {@link #reset} (index = id − 1) divided by {@code
   * triples}; 0 for this party.
   */
  String perTriple(long triples) {
    long[] per = new long[sent.length];
    for (int i = 0; i < sent.length; i++) {
      per[i] = triples == 0 ? 0 : Math.round((double) sent[i] / triples);
    }
    return Arrays.toString(per);
  }
}
