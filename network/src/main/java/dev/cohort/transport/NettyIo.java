package dev.cohort.transport;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;

/**
 * Which Netty I/O every event loop of Cohort uses: Linux's native epoll where it loads, Java's NIO
 * selector elsewhere. The one place that names the two, so that a mesh, a client link, a metrics
 * endpoint and a test's own group cannot disagree.
 *
 * <p>Why native epoll: a round of three parties is a handful of small reads and writes per party,
 * and on NIO each passes through the selector's key sets, a synchronized wake-up pipe and a JDK
 * socket channel; Netty's epoll transport calls {@code epoll_wait}, {@code read} and {@code writev}
 * directly and wakes a loop through an {@code eventfd}. The native library ships for Linux on
 * x86-64 and AArch64; on any other system, or where it fails to load (a {@code noexec} temporary
 * directory, for one), NIO is used and {@link #description} says why.
 *
 * <p>The system property {@value #PROPERTY} chooses: {@code auto} (the default: epoll where it
 * loads), {@code nio} (always NIO, for comparisons and as a way out should the native library
 * misbehave) or {@code epoll} (refuse to start without it). It is read once, when this class is
 * first used.
 *
 * <p>A channel's class must match its group's: {@link #socketChannel} and {@link #serverChannel}
 * answer for a given group, so a group made elsewhere (a test's NIO group, for instance) still gets
 * channels it can register.
 */
public final class NettyIo {

  /** The system property that chooses the I/O: {@code auto}, {@code nio} or {@code epoll}. */
  public static final String PROPERTY = "cohort.netty.io";

  private static final boolean EPOLL = choose(System.getProperty(PROPERTY, "auto"));

  private NettyIo() {}

  /** Whether new event loops use native epoll. */
  public static boolean nativeEpoll() {
    return EPOLL;
  }

  /** The I/O in use, for logs and benchmark output: "native epoll" or "NIO (why)". */
  public static String description() {
    if (EPOLL) {
      return "native epoll";
    }
    String setting = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    if (setting.equals("nio")) {
      return "NIO (" + PROPERTY + "=nio)";
    }
    Throwable why = Epoll.unavailabilityCause();
    return "NIO (native epoll unavailable: " + (why == null ? "unknown" : why.getMessage()) + ")";
  }

  /** A group of {@code threads} event loops made by {@code threads}' factory, Netty's strategy. */
  public static EventLoopGroup newGroup(int threads, ThreadFactory factory) {
    return newGroup(threads, factory, DefaultSelectStrategyFactory.INSTANCE);
  }

  /** A group of {@code threads} event loops that wait as {@code strategy} says. */
  public static EventLoopGroup newGroup(
      int threads, ThreadFactory factory, SelectStrategyFactory strategy) {
    return EPOLL
        ? new EpollEventLoopGroup(threads, factory, strategy)
        : new NioEventLoopGroup(threads, factory, SelectorProvider.provider(), strategy);
  }

  /** The client socket channel class that registers with {@code group}. */
  public static Class<? extends SocketChannel> socketChannel(EventLoopGroup group) {
    return group instanceof EpollEventLoopGroup ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  /** The listening socket channel class that registers with {@code group}. */
  public static Class<? extends ServerSocketChannel> serverChannel(EventLoopGroup group) {
    return group instanceof EpollEventLoopGroup
        ? EpollServerSocketChannel.class
        : NioServerSocketChannel.class;
  }

  /**
   * Reads the setting: epoll for {@code auto} where it loads and always for {@code epoll} (which
   * fails with the loader's reason when it does not load), NIO for {@code nio}.
   */
  static boolean choose(String setting) {
    switch (setting.trim().toLowerCase(Locale.ROOT)) {
      case "auto":
        return Epoll.isAvailable();
      case "nio":
        return false;
      case "epoll":
        Epoll.ensureAvailability();
        return true;
      default:
        throw new IllegalArgumentException(
            PROPERTY + " is '" + setting + "'; use auto, nio or epoll");
    }
  }
}
