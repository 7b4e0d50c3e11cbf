package dev.cohort.clientlink;

import dev.cohort.api.NetworkException;
import dev.cohort.transport.Failures;
import dev.cohort.transport.NettyIo;
import dev.cohort.transport.tls.Certificates;
import dev.cohort.transport.tls.TlsIdentity;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An input client's connections to the n compute servers, one per server, each over TLS 1.3 with
 * the client's certificate ({@link TlsIdentity#clientLinkClientContext}). Server i must prove party
 * i's certificate of the deployment's CA: one answering at its address with any other certificate
 * fails the handshake. Invariant: once {@link #connect} returns, every server has admitted this
 * client; from then on a frame of server i is read only through {@link #receive}{@code (i, ...)},
 * in the order it was sent.
 *
 * <p>Many clients in one JVM share one {@link EventLoopGroup} (passed to {@link #connect}); a
 * client given none runs its own one-thread group and stops it on {@link #close}. Sending is safe
 * from any thread; receiving from one thread per server.
 */
public final class ClientLink implements AutoCloseable {

  private final int client;
  private final ServerConnection[] servers;
  private final EventLoopGroup ownGroup; // null when the group was given
  private final int maxFrameBytes;

  private ClientLink(
      int client, ServerConnection[] servers, EventLoopGroup ownGroup, int maxFrameBytes) {
    this.client = client;
    this.servers = servers;
    this.ownGroup = ownGroup;
    this.maxFrameBytes = maxFrameBytes;
  }

  /**
   * Connects client {@code identity} to every server in {@code servers} (in server order) at once
   * and returns when all have admitted it. Throws {@link NetworkException} naming the first server
   * that failed (no connection, a failed handshake, a refusal with the server's reason) or that was
   * not done within the handshake timeout; every connection is closed then.
   */
  public static ClientLink connect(
      List<InetSocketAddress> servers,
      TlsIdentity identity,
      ClientLinkOptions options,
      EventLoopGroup groupOrNull) {
    CompletableFuture<ClientLink> link = connectAsync(servers, identity, options, groupOrNull);
    try {
      return link.get(options.handshakeTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof NetworkException n
          ? new NetworkException(n.getMessage(), n)
          : new NetworkException(Failures.describe(e.getCause()), e.getCause());
    } catch (TimeoutException e) {
      link.cancel(false);
      throw new NetworkException("client link: connecting timed out", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      link.cancel(false);
      throw new NetworkException("interrupted while connecting to the servers", e);
    }
  }

  /**
   * {@link #connect} without blocking: the future completes with the link once every server has
   * admitted the client, or fails with the {@link NetworkException} {@code connect} would throw. A
   * simulation connects thousands of clients from one thread with this.
   */
  public static CompletableFuture<ClientLink> connectAsync(
      List<InetSocketAddress> servers,
      TlsIdentity identity,
      ClientLinkOptions options,
      EventLoopGroup groupOrNull) {
    int client = identity.client();
    if (client < 0) {
      throw new IllegalArgumentException(
          "a client link proves an input client's certificate, not CN="
              + Certificates.commonNameOf(identity.certificate()));
    }
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("no servers to connect to");
    }
    SslContext tls = identity.clientLinkClientContext();
    EventLoopGroup own =
        groupOrNull != null
            ? null
            : NettyIo.newGroup(
                1, ClientLinkServer.daemonThreads("client link of client " + client));
    Bootstrap bootstrap =
        new Bootstrap()
            .group(own != null ? own : groupOrNull)
            .channel(NettyIo.socketChannel(own != null ? own : groupOrNull))
            .option(ChannelOption.TCP_NODELAY, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) options.handshakeTimeout().toMillis());
    ServerConnection[] connections = new ServerConnection[servers.size()];
    CompletableFuture<?>[] admitted = new CompletableFuture<?>[connections.length];
    for (int i = 0; i < connections.length; i++) {
      connections[i] = new ServerConnection(i, servers.get(i), client, tls, options);
      admitted[i] = connections[i].dial(bootstrap);
    }
    ClientLink link = new ClientLink(client, connections, own, options.maxFrameBytes());
    CompletableFuture<ClientLink> result = new CompletableFuture<>();
    for (CompletableFuture<?> a : admitted) {
      a.whenComplete(
          (v, e) -> {
            if (e != null && result.completeExceptionally(e)) {
              link.close();
            }
          });
    }
    CompletableFuture.allOf(admitted).thenRun(() -> result.complete(link));
    result.whenComplete(
        (v, e) -> {
          if (result.isCancelled()) {
            link.close();
          }
        });
    return result;
  }

  /** This client's id: its certificate's. */
  public int client() {
    return client;
  }

  /** The number of servers. */
  public int servers() {
    return servers.length;
  }

  /**
   * Sends {@code payload} to server {@code server}; it is copied at once. Throws {@link
   * NetworkException} naming the server when its connection has closed.
   */
  public void send(int server, byte[] payload) {
    connection(server).send(payload, maxFrameBytes);
  }

  /**
   * The next frame from server {@code server}, waiting up to {@code timeout}. Throws {@link
   * NetworkException} naming the server when none came within the timeout, or when the server
   * closed the connection (with its reason when there is one); frames that arrived before the close
   * are still returned first.
   */
  public byte[] receive(int server, Duration timeout) {
    return connection(server).receive(timeout);
  }

  /**
   * The next frame from server {@code server} if one has arrived already, else null, without
   * waiting; throws as {@link #receive} does once the server closed the connection.
   */
  public byte[] poll(int server) {
    return connection(server).poll();
  }

  private ServerConnection connection(int server) {
    if (server < 0 || server >= servers.length) {
      throw new IllegalArgumentException(
          "server index (" + server + ") must be in [0, " + servers.length + ")");
    }
    return servers[server];
  }

  /** Closes every connection, and this client's own event loop if it has one. */
  @Override
  public void close() {
    ChannelFuture[] closing = new ChannelFuture[servers.length];
    for (int i = 0; i < servers.length; i++) {
      closing[i] = servers[i].close();
    }
    if (ownGroup != null && !ownGroup.next().inEventLoop()) {
      for (ChannelFuture f : closing) {
        if (f != null) {
          f.awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
      }
      ownGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    } else if (ownGroup != null) {
      ownGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
  }
}
