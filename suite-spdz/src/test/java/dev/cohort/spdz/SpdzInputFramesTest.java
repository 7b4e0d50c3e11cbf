package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.engine.RunMetrics;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.testing.LinkFrames;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An SPDZ input is its owner's broadcast: in its round only the owner sends, so the frames between
 * the other parties are left out (the channel's rule: a link idle for two rounds carries an empty
 * frame in the next). The frames each party sent are counted against that rule, written here from
 * the protocol (the owners' links in the input round, every link in every later round: the
 * broadcast check, the opening and the MAC check).
 */
class SpdzInputFramesTest {

  private static final int BITS = 20;

  @ParameterizedTest(name = "n={0}, {1}")
  @CsvSource({"3, m61", "3, m127", "4, m61", "5, m127"})
  void inputs_onlyTheOwnersSend_framesFollowTheRule_sumMatches(int n, String fieldName) {
    Field field = Fields.byName(fieldName);
    SplittableRandom random = new SplittableRandom(41L * n + fieldName.length());
    int[] owners = {1, n - 1}; // two owners input in the same round; P0 and the rest do not
    long[] x = new long[owners.length];
    long expected = 0;
    for (int i = 0; i < x.length; i++) {
      x[i] = random.nextLong(-(1L << (BITS - 1)), 1L << (BITS - 1));
      expected += x[i];
    }
    Computation<Long> sum =
        b -> {
          Secret s = b.input(owners[0], x[0], BITS);
          for (int i = 1; i < owners.length; i++) {
            s = b.add(s, b.input(owners[i], x[i], BITS));
          }
          Deferred<Long> opened = b.open(s);
          return opened::get;
        };
    List<Result<Long>> results =
        new LocalParties(
                n,
                SpdzSuite.factory(SpdzConfig.insecureDealer(field, 23)),
                EngineConfig.defaults().withInsecureSeed(29),
                Duration.ofSeconds(60))
            .run(sum);

    boolean[][] inputRound = new boolean[n][n];
    for (int owner : owners) {
      for (int to = 0; to < n; to++) {
        inputRound[owner][to] = to != owner;
      }
    }
    boolean[][] everyLink = LinkFrames.opening(n, -1);
    for (int p = 0; p < n; p++) {
      assertEquals(expected, results.get(p).value(), "P" + p);
      RunMetrics m = results.get(p).metrics();
      long rounds = m.rounds();
      assertTrue(rounds >= 2, "the input round and the opening at least: " + rounds);
      boolean[][][] carries = new boolean[(int) rounds][][];
      carries[0] = inputRound;
      for (int r = 1; r < rounds; r++) {
        carries[r] = everyLink;
      }
      long[] frames = LinkFrames.sent(p, m.setupRounds(), carries, 1);
      for (int peer = 0; peer < n; peer++) {
        assertEquals(frames[peer], m.framesSent()[peer], "P" + p + "'s frames to P" + peer);
      }
    }
  }
}
