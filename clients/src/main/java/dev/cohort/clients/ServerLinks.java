package dev.cohort.clients;

import java.time.Duration;

/**
 * A client's connections to the n servers: the TLS client link in deployments, memory in tests.
 * Server {@code i}'s identity is the transport's to check.
 */
public interface ServerLinks extends AutoCloseable {

  int servers();

  /** Sends {@code message} to server {@code server}. */
  void send(int server, byte[] message);

  /**
   * The next message from server {@code server}; throws {@link dev.cohort.api.NetworkException}
   * naming the server when none comes within {@code timeout} or the connection closed.
   */
  byte[] receive(int server, Duration timeout);

  /** The next message from server {@code server} if one has arrived already, else null. */
  byte[] poll(int server);

  @Override
  void close();
}
