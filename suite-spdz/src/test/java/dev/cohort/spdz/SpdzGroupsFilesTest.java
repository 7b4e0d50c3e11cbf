package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.SessionsResult;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.random.Prg;
import dev.cohort.suite.SessionGroups;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * SPDZ sessions in groups on dealer files: runs in groups, a run that dies midway, a party that
 * drew more than the others before it stopped, and a run not in groups follow each other on the
 * same files, and no item of any kind is handed out twice at any party (the use record, and the
 * parties' agreement on positions through the groups' set-up). A corrupt party that cheats in one
 * group only makes every honest party abort with nothing returned, and the honest parties' files
 * then refuse the burned MAC key.
 */
class SpdzGroupsFilesTest {

  private static final Field FIELD = Fields.MERSENNE_61;
  private static final int N = 3;
  private static final int BITS = 20;
  private static final int CHEATER = 1;
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final DealerFiles.Amounts AMOUNTS =
      new DealerFiles.Amounts(16_000, 12_000, 12_000, 12_000, 60_000);

  /** Session i: every party inputs i·(p + 1); P0 learns Σ, everyone learns Σ·(P0's input) + 1. */
  private static Computation<long[]> session(int i, int self) {
    return b -> {
      Secret first = b.input(0, self == 0 ? i : 0, BITS);
      Secret sum = first;
      for (int p = 1; p < N; p++) {
        sum = b.add(sum, b.input(p, self == p ? (long) i * (p + 1) : 0, BITS));
      }
      Deferred<Long> total = b.openTo(0, sum);
      Deferred<Long> product = b.open(b.add(b.mul(sum, first), 1));
      Deferred<Long> bit = b.open(b.sub(b.mul(b.randomBit(), b.random()), b.random()));
      return () -> new long[] {self == 0 ? total.get() : 0, product.get(), bit.get()};
    };
  }

  private static List<Computation<long[]>> sessions(int from, int count, int self) {
    List<Computation<long[]>> list = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      list.add(session(i, self));
    }
    return list;
  }

  private static void assertSessions(List<SessionsResult<long[]>> results, int from) {
    for (int p = 0; p < N; p++) {
      List<long[]> values = results.get(p).values();
      for (int j = 0; j < values.size(); j++) {
        long i = from + j;
        BigInteger sum = BigInteger.valueOf(i * (N * (N + 1) / 2));
        BigInteger product = sum.multiply(BigInteger.valueOf(i)).add(BigInteger.ONE);
        if (p == 0) {
          assertEquals(sum.longValueExact(), values.get(j)[0], "P0 session " + i);
        }
        assertEquals(product.longValueExact(), values.get(j)[1], "P" + p + " session " + i);
      }
    }
  }

  private static LocalParties parties(SuiteFactory suite, int groups, long seed) {
    return LocalParties.builder(N)
        .suite(suite)
        .config(EngineConfig.defaults().withInsecureSeed(seed).withGroups(groups))
        .deadline(TIMEOUT)
        .open();
  }

  /** The items of each kind a party drew, as [from, to) ranges over every run. */
  private static void addRanges(RecordingPreprocessing[] sources, List<List<long[]>> ranges) {
    for (int p = 0; p < N; p++) {
      for (RecordingPreprocessing.Draw d : sources[p].draws()) {
        ranges.add(List.of(new long[] {p, d.kind(), d.from(), d.from() + d.count()}));
      }
    }
  }

  private static void assertNoItemTwice(List<List<long[]>> ranges) {
    for (int a = 0; a < ranges.size(); a++) {
      long[] x = ranges.get(a).get(0);
      for (int b = a + 1; b < ranges.size(); b++) {
        long[] y = ranges.get(b).get(0);
        if (x[0] == y[0] && x[1] == y[1] && x[2] != x[3] && y[2] != y[3]) {
          assertTrue(
              x[3] <= y[2] || y[3] <= x[2],
              "P" + x[0] + " kind " + x[1] + ": [" + x[2] + ", " + x[3] + ") and [" + y[2] + ", "
                  + y[3] + ")");
        }
      }
    }
  }

  @Test
  void groupsThenACrashThenAPartyAheadThenNoGroups_noItemHandedOutTwice(@TempDir Path directory) {
    DealerFiles.writeInsecure(directory, FIELD, N, AMOUNTS, 61);
    List<List<long[]>> ranges = new ArrayList<>();

    RecordingPreprocessing[] first = new RecordingPreprocessing[N];
    SuiteFactory recorded1 = recorded(directory, first);
    assertSessions(parties(recorded1, 3, 1).runSessionsEach(p -> sessions(0, 200, p), 1000), 0);
    addRanges(first, ranges);

    // A run that dies midway: P2's session 150 fails in its second step, after draws everywhere.
    RecordingPreprocessing[] crashed = new RecordingPreprocessing[N];
    SuiteFactory recorded2 = recorded(directory, crashed);
    assertThrows(
        PartyFailedException.class,
        () ->
            parties(recorded2, 2, 2)
                .runSessionsEach(
                    p -> {
                      List<Computation<long[]>> list = sessions(200, 200, p);
                      if (p == 2) {
                        list.set(
                            150,
                            b ->
                                b.seq(c -> c.open(c.mul(c.random(), c.random())))
                                    .seq(
                                        (c, w) -> {
                                          throw new IllegalStateException("P2 stops");
                                        }));
                      }
                      return list;
                    },
                    1000));
    addRanges(crashed, ranges);

    // P1 drew more than the others before it stopped: the next run skips it at every party.
    FilePreprocessing ahead = FilePreprocessing.open(DealerFiles.file(directory, 1), FIELD, 1, N);
    long[] before = ahead.positions().used().clone();
    ahead.triples(5);
    ahead.inputBits(0, 3000);
    ranges.add(List.of(new long[] {1, 0, before[0], before[0] + 5}));
    ranges.add(List.of(new long[] {1, 3 + N, before[3 + N], before[3 + N] + 3000}));

    RecordingPreprocessing[] after = new RecordingPreprocessing[N];
    SuiteFactory recorded3 = recorded(directory, after);
    assertSessions(parties(recorded3, 3, 3).runSessionsEach(p -> sessions(400, 150, p), 1000), 400);
    for (int p = 0; p < N; p++) {
      RecordingPreprocessing.Draw firstTriples = ofKind(after[p].draws(), 0).get(0);
      assertTrue(firstTriples.from() >= before[0] + 5, "P" + p + " skipped P1's triples");
    }
    addRanges(after, ranges);

    // and a run not in groups on the same files
    RecordingPreprocessing[] alone = new RecordingPreprocessing[N];
    assertSessions(
        parties(recorded(directory, alone), 1, 4).runSessionsEach(p -> sessions(550, 40, p), 40),
        550);
    addRanges(alone, ranges);
    assertNoItemTwice(ranges);
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

  private static SuiteFactory recorded(Path directory, RecordingPreprocessing[] into) {
    return SpdzSuite.factory(
        SpdzConfig.of(
            FIELD, RecordingPreprocessing.wrap(DealerFiles.source(directory), into), "recorded"));
  }

  // ---- a corrupt party that cheats in one group only ----

  /**
   * SPDZ on {@code config} where P{@link #CHEATER}'s suite of group {@code group} applies {@code
   * tamper}, and every other suite (its other groups', the honest parties') is honest.
   */
  private static SuiteFactory cheatingInGroup(SpdzConfig config, int group, Tamper tamper) {
    SuiteFactory spdz = SpdzSuite.factory(config);
    return new SuiteFactory() {
      @Override
      public String name() {
        return spdz.name();
      }

      @Override
      public Field field() {
        return spdz.field();
      }

      @Override
      public void validate(int parties) {
        spdz.validate(parties);
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new TamperingSuite(spdz.create(party, parties, prg), null);
      }

      @Override
      public boolean runsInGroups() {
        return true;
      }

      @Override
      public SessionGroups groups(int groups) {
        SessionGroups inner = spdz.groups(groups);
        return new SessionGroups() {
          @Override
          public SuiteFactory whole() {
            return CorruptParty.decorated(inner.whole(), (p, s) -> new TamperingSuite(s, null));
          }

          @Override
          public SuiteFactory group(int g) {
            return CorruptParty.decorated(
                inner.group(g),
                (p, s) -> new TamperingSuite(s, p == CHEATER && g == group ? tamper : null));
          }

          @Override
          public void beforeRun(int running) {
            inner.beforeRun(running);
          }
        };
      }
    };
  }

  private static long checkMark(Path file) throws IOException {
    ByteBuffer b =
        ByteBuffer.wrap(Files.readAllBytes(FilePreprocessing.usedFile(file)))
            .order(ByteOrder.LITTLE_ENDIAN);
    return b.getLong(b.capacity() - 16);
  }

  @ParameterizedTest
  @EnumSource(
      value = Tamper.Message.class,
      names = {"MULTIPLY", "OPEN", "CHECK_SIGMA"})
  void cheatInOneGroupOnly_everyHonestPartyAborts_nothingReturned_filesRefusedAfter(
      Tamper.Message target, @TempDir Path directory) throws IOException {
    DealerFiles.writeInsecure(directory, FIELD, N, AMOUNTS, 62);
    SpdzConfig files = SpdzConfig.dealerFiles(FIELD, directory);
    Tamper tamper = CorruptParty.add(FIELD, 1, target, -1);
    List<List<SessionsResult<long[]>>> returned = new ArrayList<>();
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                returned.add(
                    parties(cheatingInGroup(files, 1, tamper), 3, 5)
                        .runSessionsEach(p -> sessions(0, 120, p), 1000)));
    assertEquals(List.of(), returned, "no party's results returned");
    CorruptParty.assertHonestPartiesFail(
        e, N, CHEATER, AbortException.class, m -> m.startsWith("MAC check failed"));
    for (int p : new int[] {0, 2}) {
      assertEquals(2, checkMark(DealerFiles.file(directory, p)), "P" + p + ": the check failed");
    }

    // The same files again, honest everywhere and in groups: the burned key is refused.
    PartyFailedException again =
        assertThrows(
            PartyFailedException.class,
            () ->
                parties(SpdzSuite.factory(files), 3, 6)
                    .runSessionsEach(p -> sessions(0, 10, p), 1000));
    CorruptParty.assertHonestPartiesFail(
        again,
        N,
        CHEATER,
        IllegalStateException.class,
        m -> m.startsWith("a MAC check failed on the SPDZ preprocessing in " + directory));
  }
}
