package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.NetworkException;
import dev.cohort.api.Secret;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.LoopbackMesh;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.transport.LiveThreads;
import dev.cohort.transport.TestKeys;
import dev.cohort.transport.TransportOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A peer that dies or freezes in the middle of a computation makes every other party fail within
 * the idle timeout with an error naming it, even though the receive timeout is far longer; nothing
 * hangs, and every event-loop thread and connection is released afterwards.
 */
@ExtendWith(LeakCheck.class)
class LivenessTest {

  /** The name of every event-loop thread of the Netty transport starts with this. */
  private static final String EVENT_LOOP_PREFIX = "cohort-netty-";

  private static final Duration IDLE = Duration.ofMillis(1000);
  private static final Duration RECEIVE = Duration.ofSeconds(30);

  @TempDir static Path keyDirectory;
  private static TestKeys keys;

  @BeforeAll
  static void generateKeys() {
    keys = TestKeys.generate(keyDirectory, 3);
  }

  private static TransportOptions options(int party) {
    return keys.options(party).withIdleTimeout(IDLE).withReceiveTimeout(RECEIVE);
  }

  /** How the victim goes. */
  enum Death {
    /** Its event loop stops: the sockets close at once, with no abort frame. */
    EVENT_LOOP_SHUT_DOWN,
    /** Its event loop is stuck: sockets stay open, nothing is read or written, no heartbeats. */
    EVENT_LOOP_FROZEN
  }

  /**
   * A multiplication and an open, then a step in which {@code victim} signals {@code reached} and
   * waits for {@code resume} (the others go on into the next round and wait for its frame), then
   * another multiplication and open.
   */
  private static Computation<Long> twoSteps(
      int victim, CountDownLatch reached, CountDownLatch resume) {
    return b -> {
      Secret x = b.input(0, b.myId() == 0 ? 6 : 0, 8);
      Secret y = b.input(1, b.myId() == 1 ? 7 : 0, 8);
      return b.seq(first -> first.open(first.mul(x, y)))
          .seq(
              (next, product) -> {
                if (next.myId() == victim) {
                  reached.countDown();
                  awaitQuietly(resume);
                }
                return next.open(next.mul(next.known(product), y));
              });
    };
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Standing parties on Netty with {@code options}, BGW over 2^61 − 1, a fixed seed. */
  private static LocalParties parties(IntFunction<TransportOptions> options, long seed) {
    return LocalParties.builder(3)
        .suite(BgwSuite.factory(Fields.MERSENNE_61))
        .config(EngineConfig.defaults().withInsecureSeed(seed))
        .mesh(Loopback.of(Transport.NETTY, options))
        .standing()
        .open();
  }

  @ParameterizedTest
  @EnumSource(Death.class)
  void engine_peerDiesMidComputation_othersFailWithinIdleTimeoutNamingIt(Death death)
      throws Exception {
    long threadsBefore = LiveThreads.count(EVENT_LOOP_PREFIX);
    LocalParties parties = parties(LivenessTest::options, 11);
    LoopbackMesh mesh = (LoopbackMesh) parties.mesh();
    List<InetSocketAddress> addresses = mesh.addresses();
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    CountDownLatch thaw = new CountDownLatch(1);
    CountDownLatch survivorsDone = new CountDownLatch(2);
    long[] failedAt = new long[3];
    long[] killedAt = new long[1];
    Thread killer =
        new Thread(
            () -> {
              awaitQuietly(reached);
              killedAt[0] = System.nanoTime();
              NettyNetwork victim = (NettyNetwork) mesh.network(2);
              if (death == Death.EVENT_LOOP_SHUT_DOWN) {
                victim.eventLoop().shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
              } else {
                victim.eventLoop().execute(() -> awaitQuietly(thaw));
              }
              awaitQuietly(survivorsDone); // then let the victim notice what happened
              thaw.countDown();
              resume.countDown();
            });
    killer.start();
    List<PartyFailedException> failures =
        assertThrows(
                PartyFailedException.class,
                () ->
                    parties.onEngines(
                        (p, engine) -> {
                          try {
                            return engine.run(twoSteps(2, reached, resume));
                          } catch (RuntimeException e) {
                            failedAt[p] = System.nanoTime();
                            throw e;
                          } finally {
                            if (p != 2) {
                              survivorsDone.countDown();
                            }
                          }
                        }))
            .failures();
    killer.join(10_000);
    String victim = "P2 (127.0.0.1:" + addresses.get(2).getPort() + ")";
    long limit = IDLE.toMillis() + 1000;
    assertEquals(3, failures.size(), "every party failed, none hung");
    for (PartyFailedException f : failures) {
      int p = f.party().index();
      if (p == 2) {
        continue;
      }
      String message = f.getCause().getMessage();
      assertTrue(f.getCause() instanceof NetworkException, f.getCause().toString());
      assertTrue(message.contains(victim), message);
      assertTrue(failedAt[p] != 0, "P" + p + " failed inside the computation: " + message);
      long millis = TimeUnit.NANOSECONDS.toMillis(failedAt[p] - killedAt[0]);
      assertTrue(millis < limit, "P" + p + " failed " + millis + " ms after the kill");
    }
    parties.close();
    for (int p = 0; p < 3; p++) {
      assertTrue(
          ((NettyNetwork) mesh.network(p)).isReleased(),
          "every connection and the event loop are closed");
    }
    long threadsAfter = LiveThreads.awaitAtMost(EVENT_LOOP_PREFIX, threadsBefore);
    assertTrue(
        threadsAfter <= threadsBefore,
        (threadsAfter - threadsBefore) + " event-loop threads left behind");
  }

  @Test
  void engine_peerBusyLongerThanIdleTimeout_heartbeatsKeepItConnected() {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    Thread waker =
        new Thread(
            () -> {
              awaitQuietly(reached);
              try {
                Thread.sleep(3 * 300); // P2 computes locally for three idle timeouts
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              resume.countDown();
            });
    waker.start();
    List<Result<Long>> results;
    try (LocalParties parties =
        parties(p -> options(p).withIdleTimeout(Duration.ofMillis(300)), 12)) {
      results = parties.run(twoSteps(2, reached, resume));
    }
    for (Result<Long> r : results) {
      assertEquals(6L * 7 * 7, r.value());
    }
  }
}
