package dev.cohort.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.api.Computation;
import dev.cohort.api.Secret;
import dev.cohort.bgw.BgwSuite;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.loopback.Loopback;
import dev.cohort.harness.loopback.Transport;
import dev.cohort.testing.LinkFrames;
import dev.cohort.transport.TestKeys;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Everything one party sends one peer in one round, from every gate of every session, leaves as one
 * frame: k independent sessions in one run cost as many frames per peer as one session does. A
 * round sends no frame on a link that carries no words, unless the link went without one for two
 * rounds ({@link LinkFrames}).
 */
@ExtendWith(LeakCheck.class)
class CoalescingTest {

  /** Rounds of one session below: inputs, a multiplication, an open. */
  private static final long SESSION_ROUNDS = 3;

  /**
   * The links that carry words in those rounds: P0 and P1 deal their inputs, P0..P2 the
   * multiplication's degree reduction, every party its share of the opening.
   */
  private static final boolean[][][] SESSION_LINKS = {
    LinkFrames.bgwDealing(3, 1, 0, 1),
    LinkFrames.bgwDealing(3, 1, 0, 1, 2),
    LinkFrames.opening(3, -1)
  };

  @TempDir static Path keyDirectory;
  private static TestKeys keys;

  @BeforeAll
  static void generateKeys() {
    keys = TestKeys.generate(keyDirectory, 3);
  }

  /** Three one-shot parties on Netty with TLS, BGW over 2^61 − 1, seeded with {@code seed}. */
  private static LocalParties parties(long seed) {
    return LocalParties.builder(3)
        .suite(BgwSuite.factory(Fields.MERSENNE_61))
        .config(EngineConfig.defaults().withInsecureSeed(seed))
        .mesh(Loopback.of(Transport.NETTY, keys::options))
        .open();
  }

  /** Session i: P0 inputs i + 1, P1 inputs 2i + 3, everyone learns their product. */
  private static Computation<Long> session(int i) {
    return b -> {
      Secret x = b.input(0, b.myId() == 0 ? i + 1 : 0, 16);
      Secret y = b.input(1, b.myId() == 1 ? 2L * i + 3 : 0, 16);
      return b.open(b.mul(x, y));
    };
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 100})
  void parSessions_threePartiesOverTls_sendAtMostOneFramePerPeerPerRound(int k) {
    List<Computation<Long>> sessions = new ArrayList<>();
    for (int i = 0; i < k; i++) {
      sessions.add(session(i));
    }
    List<Result<List<Long>>> results;
    try (LocalParties parties = parties(k)) {
      results = parties.run(b -> b.par(sessions));
    }
    for (Result<List<Long>> r : results) {
      for (int i = 0; i < k; i++) {
        assertEquals((i + 1L) * (2L * i + 3), r.value().get(i), "session " + i);
      }
      assertEquals(SESSION_ROUNDS, r.metrics().rounds(), "k sessions share the rounds of one");
      int p = r.metrics().party();
      long[] expected = LinkFrames.sent(p, r.metrics().setupRounds(), SESSION_LINKS, 1);
      long[] frames = r.metrics().framesSent();
      for (int q = 0; q < frames.length; q++) {
        assertEquals(expected[q], frames[q], "frames from P" + p + " to P" + q);
      }
    }
  }

  /**
   * The sessions API over TLS: 1000 sessions at parallelism k take as many rounds as 1000 / k
   * sessions one after another, and every round is one frame per peer.
   */
  @ParameterizedTest
  @ValueSource(ints = {1, 20, 1000})
  void runSessions_threePartiesOverTls_sendAtMostOneFramePerPeerPerRound(int k) {
    int count = 1000;
    List<Computation<Long>> sessions = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sessions.add(session(i));
    }
    List<SessionsResult<Long>> results;
    try (LocalParties parties = parties(k)) {
      results = parties.runSessions(sessions, k);
    }
    long waves = (count + k - 1) / k;
    for (SessionsResult<Long> r : results) {
      for (int i = 0; i < count; i++) {
        assertEquals((i + 1L) * (2L * i + 3), r.values().get(i), "session " + i);
      }
      assertEquals(SESSION_ROUNDS * waves, r.metrics().rounds(), "k sessions share rounds");
      int p = r.metrics().party();
      long[] expected = LinkFrames.sent(p, r.metrics().setupRounds(), SESSION_LINKS, waves);
      long[] frames = r.metrics().framesSent();
      for (int q = 0; q < frames.length; q++) {
        assertEquals(expected[q], frames[q], "frames from P" + p + " to P" + q);
      }
    }
  }
}
