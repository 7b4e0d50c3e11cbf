package dev.cohort.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Which Netty I/O the event loops use, and that a channel always matches its group. */
class NettyIoTest {

  /**
   * On Linux x86-64 and AArch64 the native library ships with Cohort: it must load (a Netty upgrade
   * whose native jar no longer matches its classes would fall back to NIO silently otherwise).
   */
  @Test
  void linux_loadsNativeEpoll() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    assumeTrue(os.contains("linux") && (arch.equals("amd64") || arch.equals("aarch64")));
    assumeTrue(!"nio".equals(System.getProperty(NettyIo.PROPERTY)), "NIO chosen for this run");
    assertTrue(Epoll.isAvailable(), String.valueOf(Epoll.unavailabilityCause()));
    assertTrue(NettyIo.nativeEpoll());
    assertEquals("native epoll", NettyIo.description());
    EventLoopGroup group = NettyIo.newGroup(1, new DefaultThreadFactory("io-test", true));
    try {
      assertTrue(group instanceof EpollEventLoopGroup, group.getClass().getName());
    } finally {
      shutDown(group);
    }
  }

  @Test
  void choose_readsTheSetting() {
    assertFalse(NettyIo.choose("nio"));
    assertFalse(NettyIo.choose(" NIO "));
    assertEquals(Epoll.isAvailable(), NettyIo.choose("auto"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NettyIo.choose("kqueue"));
    assertEquals("cohort.netty.io is 'kqueue'; use auto, nio or epoll", e.getMessage());
  }

  @Test
  void channels_matchTheGroupTheyRegisterWith() {
    assertChannels(new NioEventLoopGroup(1), NioSocketChannel.class, NioServerSocketChannel.class);
    assumeTrue(Epoll.isAvailable());
    assertChannels(
        new EpollEventLoopGroup(1), EpollSocketChannel.class, EpollServerSocketChannel.class);
  }

  /** The channel classes {@link NettyIo} gives for {@code group}, which it then shuts down. */
  private static void assertChannels(EventLoopGroup group, Class<?> socket, Class<?> server) {
    try {
      assertEquals(socket, NettyIo.socketChannel(group));
      assertEquals(server, NettyIo.serverChannel(group));
    } finally {
      shutDown(group);
    }
  }

  private static void shutDown(EventLoopGroup group) {
    group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
  }
}
