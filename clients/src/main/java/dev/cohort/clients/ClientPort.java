package dev.cohort.clients;

/**
 * How an input server reaches its clients: the TLS client link in deployments, memory in tests. The
 * client id is the one the transport authenticated (a certificate's), never one a message claims.
 */
public interface ClientPort {

  /** Sends {@code message} to client {@code client} if it is connected; drops it otherwise. */
  void send(int client, byte[] message);

  /** Sends {@code message} to every connected client. */
  void broadcast(byte[] message);

  /**
   * Sends {@code message} to every connected client except those in {@code skip} (ascending): what
   * a session's opening costs when most clients learned of it already.
   */
  default void broadcastExcept(byte[] message, int[] skip) {
    if (skip.length == 0) {
      broadcast(message);
      return;
    }
    throw new UnsupportedOperationException("this port cannot skip clients");
  }
}
