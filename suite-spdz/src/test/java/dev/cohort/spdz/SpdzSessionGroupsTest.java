package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.SessionFailedException;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * SPDZ sessions in groups, each group an engine on its own thread drawing its own slice of the
 * party's one preprocessing source: the values match an exact BigInteger reference at n = 2 and 3
 * over 2^61 − 1 and 2^127 − 1, every party's source is opened once and drawn in whole chunks in the
 * same order at every party, later runs (in fewer groups, or not in groups) go on after what
 * earlier ones drew, and a failing session is named by its index in the whole list.
 */
class SpdzSessionGroupsTest {

  private static final int SESSIONS = 300;
  private static final int BITS = 30;
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** Random 30-bit signed inputs per session and party, from a fixed seed. */
  private static long[][] inputs(int parties) {
    SplittableRandom r = new SplittableRandom(2027 + parties);
    long[][] x = new long[SESSIONS][parties];
    for (long[] row : x) {
      for (int p = 0; p < parties; p++) {
        row[p] = r.nextLong(-(1L << (BITS - 1)), 1L << (BITS - 1));
      }
    }
    return x;
  }

  /**
   * A distance-average-like session at party {@code self}: t = Σ x_p (opened to P0), u = t·x_0 +
   * x_{n−1} (opened to all), and two openings that must be 0 (b² − b for a random bit b, r·t − t·r
   * for a random element r): inputs of declared width, multiplications, random elements and bits,
   * openings to one party and to all.
   */
  private static Computation<long[]> session(long[] x, int parties, int self) {
    return b -> {
      Secret x0 = b.input(0, self == 0 ? x[0] : 0, BITS);
      Secret t = x0;
      Secret last = x0;
      for (int p = 1; p < parties; p++) {
        last = b.input(p, self == p ? x[p] : 0, BITS);
        t = b.add(t, last);
      }
      Secret bit = b.randomBit();
      Secret r = b.random();
      Deferred<Long> total = b.openTo(0, t);
      Deferred<Long> u = b.open(b.add(b.mul(t, x0), last));
      Deferred<Long> notBit = b.open(b.sub(b.mul(bit, bit), bit));
      Deferred<Long> zero = b.open(b.sub(b.mul(r, t), b.mul(t, r)));
      return () -> new long[] {self == 0 ? total.get() : 0, u.get(), notBit.get(), zero.get()};
    };
  }

  /** The value an opening gives for {@code v}: v mod p, in the symmetric range. */
  private static long opened(BigInteger v, Field field) {
    BigInteger p = field.modulus();
    BigInteger m = v.mod(p);
    return (m.compareTo(p.shiftRight(1)) > 0 ? m.subtract(p) : m).longValueExact();
  }

  private static void assertSessions(
      List<SessionsResult<long[]>> results, long[][] x, int from, int count, Field field) {
    int parties = results.size();
    for (int p = 0; p < parties; p++) {
      List<long[]> values = results.get(p).values();
      assertEquals(count, values.size());
      for (int i = 0; i < count; i++) {
        long[] row = x[from + i];
        BigInteger t = BigInteger.ZERO;
        for (long v : row) {
          t = t.add(BigInteger.valueOf(v));
        }
        BigInteger u =
            t.multiply(BigInteger.valueOf(row[0])).add(BigInteger.valueOf(row[parties - 1]));
        long[] got = values.get(i);
        String at = "P" + p + " session " + (from + i);
        if (p == 0) {
          assertEquals(opened(t, field), got[0], at + ": total");
        }
        assertEquals(opened(u, field), got[1], at + ": t·x0 + x_last");
        assertEquals(0, got[2], at + ": b² − b");
        assertEquals(0, got[3], at + ": r·t − t·r");
      }
    }
  }

  private static List<Computation<long[]>> sessions(
      long[][] x, int parties, int self, int from, int count) {
    List<Computation<long[]>> list = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      list.add(session(x[i], parties, self));
    }
    return list;
  }

  /** Every party's source drawn alike: the same draws, each a whole chunk, in order per kind. */
  private static void assertSameWholeChunksInOrder(RecordingPreprocessing[] sources) {
    List<RecordingPreprocessing.Draw> first = sources[0].draws();
    assertTrue(!first.isEmpty());
    long[] next = new long[PositionAgreement.kinds(sources.length)];
    for (RecordingPreprocessing.Draw d : first) {
      assertEquals(SlicedPreprocessing.CHUNK, d.count(), "whole chunks: " + d);
      assertEquals(next[d.kind()], d.from(), "chunk order: " + d);
      next[d.kind()] += d.count();
    }
    for (int p = 1; p < sources.length; p++) {
      // the order of kinds across threads may differ; per kind the draws are the same
      for (int kind = 0; kind < next.length; kind++) {
        assertEquals(
            ofKind(first, kind), ofKind(sources[p].draws(), kind), "P" + p + " kind " + kind);
      }
    }
  }

  private static List<RecordingPreprocessing.Draw> ofKind(
      List<RecordingPreprocessing.Draw> draws, int kind) {
    List<RecordingPreprocessing.Draw> out = new ArrayList<>();
    for (RecordingPreprocessing.Draw d : draws) {
      if (d.kind() == kind) {
        out.add(d);
      }
    }
    return out;
  }

  @ParameterizedTest(name = "n={0} field={1} groups={2} parallelism={3}")
  @CsvSource({
    "2, m61, 2, 1000",
    "2, m127, 3, 64",
    "3, m61, 3, 1000",
    "3, m127, 2, 64",
    "3, m61, 2, 7"
  })
  void sessionsInGroups_matchTheReference_sourceDrawnInWholeChunksAlikeEverywhere(
      int parties, String fieldName, int groups, int parallelism) {
    Field field = Fields.byName(fieldName);
    long[][] x = inputs(parties);
    RecordingPreprocessing[] sources = new RecordingPreprocessing[parties];
    SpdzConfig config =
        SpdzConfig.of(
            field, RecordingPreprocessing.wrap(InsecureDealer.source(31), sources), "recorded");
    EngineConfig engine = EngineConfig.defaults().withInsecureSeed(17).withGroups(groups);
    List<SessionsResult<long[]>> results =
        LocalParties.builder(parties)
            .suite(SpdzSuite.factory(config))
            .config(engine)
            .deadline(TIMEOUT)
            .open()
            .runSessionsEach(self -> sessions(x, parties, self, 0, SESSIONS), parallelism);
    assertSessions(results, x, 0, SESSIONS, field);
    assertSameWholeChunksInOrder(sources);
    assertEquals(4L * SESSIONS, results.get(0).metrics().elements().get("multiply"), "four each");
  }

  @Test
  void standingParties_runsInThreeThenTwoGroupsThenNone_eachGoesOnAfterTheLast() {
    int parties = 3;
    Field field = Fields.MERSENNE_127;
    long[][] x = inputs(parties);
    RecordingPreprocessing[] sources = new RecordingPreprocessing[parties];
    SpdzConfig config =
        SpdzConfig.of(
            field, RecordingPreprocessing.wrap(InsecureDealer.source(32), sources), "recorded");
    try (LocalParties standing =
        LocalParties.builder(parties)
            .suite(SpdzSuite.factory(config))
            .config(EngineConfig.defaults().withInsecureSeed(18).withGroups(3))
            .deadline(TIMEOUT)
            .standing()
            .open()) {
      assertSessions(
          standing.runSessionsEach(self -> sessions(x, parties, self, 0, 150), 150),
          x,
          0,
          150,
          field);
      assertSessions(
          standing.runSessionsEach(self -> sessions(x, parties, self, 150, 100), 2),
          x,
          150,
          100,
          field);
      assertSessions(
          standing.runSessionsEach(self -> sessions(x, parties, self, 250, 50), 1),
          x,
          250,
          50,
          field);
    }
    // the last run is the engine's own suite: draws of the requests' sizes, after the chunks
    for (int p = 0; p < parties; p++) {
      List<RecordingPreprocessing.Draw> draws = sources[p].draws();
      long[] next = new long[PositionAgreement.kinds(parties)];
      for (RecordingPreprocessing.Draw d : draws) {
        assertEquals(next[d.kind()], d.from(), "P" + p + ": each draw after the last: " + d);
        next[d.kind()] += d.count();
      }
      assertTrue(draws.get(draws.size() - 1).count() < SlicedPreprocessing.CHUNK);
      for (int kind = 0; kind < next.length; kind++) {
        assertEquals(ofKind(sources[0].draws(), kind), ofKind(draws, kind), "P" + p);
      }
    }
  }

  @Test
  void sessionInALaterGroupThrows_runFailsNamingItsIndexInTheWholeList() {
    int parties = 2;
    long[][] x = inputs(parties);
    SpdzConfig config = SpdzConfig.insecureDealer(Fields.MERSENNE_61, 33);
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                LocalParties.builder(parties)
                    .suite(SpdzSuite.factory(config))
                    .config(EngineConfig.defaults().withInsecureSeed(19).withGroups(3))
                    .deadline(TIMEOUT)
                    .open()
                    .runSessionsEach(
                        self -> {
                          List<Computation<long[]>> list = sessions(x, parties, self, 0, SESSIONS);
                          list.set(
                              271, // in the third of three groups (sessions 200 to 299)
                              b -> {
                                Secret v = b.mul(b.input(0, 5, BITS), b.input(1, 6, BITS));
                                return b.seq(c -> c.open(v))
                                    .seq(
                                        (c, w) -> {
                                          throw new ArithmeticException(
                                              "distance " + w + " too far");
                                        });
                              });
                          return list;
                        },
                        1000));
    SessionFailedException cause = assertInstanceOf(SessionFailedException.class, e.getCause());
    assertEquals(271, cause.session());
    assertEquals("session 271 failed: distance 30 too far", cause.getMessage());
  }
}
