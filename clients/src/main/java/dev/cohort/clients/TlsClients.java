package dev.cohort.clients;

import dev.cohort.clientlink.ClientLink;
import dev.cohort.clientlink.ClientLinkOptions;
import dev.cohort.clientlink.ClientLinkServer;
import dev.cohort.transport.tls.TlsIdentity;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;

/**
 * Input clients over the TLS client link: a server's {@link ClientLinkServer} feeding its {@link
 * InputServer}, and a client's {@link ClientLink} as its {@link ServerLinks}. The client id is the
 * one the link authenticated from the client's certificate.
 */
public final class TlsClients {

  private TlsClients() {}

  /**
   * Serves {@code server}'s clients on {@code bind} with {@code identity} (this party's TLS
   * material); close the returned link server to stop.
   */
  public static ClientLinkServer serve(
      InputServer server, InetSocketAddress bind, TlsIdentity identity, ClientLinkOptions options) {
    Port port = new Port();
    server.attach(port); // before the first client can connect
    port.link =
        ClientLinkServer.start(
            bind,
            identity,
            options,
            new ClientLinkServer.Handler() {
              @Override
              public void connected(int client) {
                server.connected(client);
              }

              @Override
              public void message(int client, byte[] payload) {
                server.message(client, payload);
              }

              @Override
              public void disconnected(int client, Throwable causeOrNull) {
                server.disconnected(client);
              }
            });
    return port.link;
  }

  /** The server's port to its clients, once the link server has started. */
  private static final class Port implements ClientPort {
    volatile ClientLinkServer link;

    @Override
    public void send(int client, byte[] message) {
      ClientLinkServer l = link;
      if (l != null) {
        l.send(client, message);
      }
    }

    @Override
    public void broadcast(byte[] message) {
      ClientLinkServer l = link;
      if (l != null) {
        l.broadcast(message);
      }
    }

    @Override
    public void broadcastExcept(byte[] message, int[] skip) {
      ClientLinkServer l = link;
      if (l != null) {
        l.broadcast(message, client -> Arrays.binarySearch(skip, client) < 0);
      }
    }
  }

  /** A client's links to the servers over its connected {@code link}. */
  public static ServerLinks over(ClientLink link) {
    return new ServerLinks() {
      @Override
      public int servers() {
        return link.servers();
      }

      @Override
      public void send(int server, byte[] message) {
        link.send(server, message);
      }

      @Override
      public byte[] receive(int server, Duration timeout) {
        return link.receive(server, timeout);
      }

      @Override
      public byte[] poll(int server) {
        return link.poll(server);
      }

      @Override
      public void close() {
        link.close();
      }
    };
  }
}
