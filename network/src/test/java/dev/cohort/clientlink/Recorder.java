package dev.cohort.clientlink;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A server's handler for tests: records what each client sent and every connect and disconnect,
 * and, when it echoes, answers each payload with {@link #reply}.
 */
final class Recorder implements ClientLinkServer.Handler {

  /** A client's connect or disconnect, as the handler saw it. */
  record Event(String kind, int client, Throwable cause) {}

  private final int serverIndex;
  private final boolean echo;
  private final Map<Integer, List<byte[]>> received = new ConcurrentHashMap<>();
  final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
  volatile ClientLinkServer server;

  Recorder(int serverIndex, boolean echo) {
    this.serverIndex = serverIndex;
    this.echo = echo;
  }

  /** What an echoing server {@code server} answers to {@code payload}: reversed, plus its index. */
  static byte[] reply(int server, byte[] payload) {
    byte[] answer = new byte[payload.length + 1];
    for (int i = 0; i < payload.length; i++) {
      answer[i] = payload[payload.length - 1 - i];
    }
    answer[payload.length] = (byte) server;
    return answer;
  }

  @Override
  public void connected(int client) {
    events.add(new Event("connected", client, null));
  }

  @Override
  public void message(int client, byte[] payload) {
    received.computeIfAbsent(client, c -> Collections.synchronizedList(new ArrayList<>()));
    received.get(client).add(payload);
    if (echo) {
      server.send(client, reply(serverIndex, payload));
    }
  }

  @Override
  public void disconnected(int client, Throwable causeOrNull) {
    events.add(new Event("disconnected", client, causeOrNull));
  }

  /** What client {@code client} sent, in order. */
  List<byte[]> from(int client) {
    List<byte[]> list = received.get(client);
    if (list == null) {
      return List.of();
    }
    synchronized (list) {
      return List.copyOf(list);
    }
  }

  /** The next event, waiting up to 10 s; fails when none comes. */
  Event next() throws InterruptedException {
    Event e = events.poll(10, TimeUnit.SECONDS);
    if (e == null) {
      throw new AssertionError("server " + serverIndex + ": no connect or disconnect within 10 s");
    }
    return e;
  }
}
