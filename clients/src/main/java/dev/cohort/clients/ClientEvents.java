package dev.cohort.clients;

/**
 * What a transport tells an input server about its clients. Calls may come from several transport
 * threads at once and must return promptly; the server never blocks in them.
 */
public interface ClientEvents {

  /** Client {@code client} connected (its identity authenticated by the transport). */
  void connected(int client);

  /** Client {@code client} sent {@code message}. */
  void message(int client, byte[] message);

  /** Client {@code client}'s connection closed. */
  void disconnected(int client);
}
