package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.suite.Shares;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The slices of one party's preprocessing for groups of sessions: groups on their own threads, with
 * every party's threads timed differently (random pauses), ask for every kind in random amounts,
 * many spanning chunks. Whatever the timing, the groups of one party get pairwise disjoint items,
 * the source is drawn in whole chunks strictly in chunk order with chunk j going to group j mod k,
 * and group g gets the same stream positions at every party. The MAC-check marks of several groups'
 * checks in flight are counted.
 */
class SlicedPreprocessingTest {

  private static final int PARTIES = 3;
  private static final int CHUNK = SlicedPreprocessing.CHUNK;

  /** The requests of group g: (kind, count) pairs, the same at every party. */
  private static List<int[]> requests(int g) {
    SplittableRandom r = new SplittableRandom(77 + g);
    List<int[]> list = new ArrayList<>();
    int kinds = PositionAgreement.kinds(PARTIES);
    for (int i = 0; i < 60; i++) {
      int count = r.nextInt(8) == 0 ? r.nextInt(3 * CHUNK) : r.nextInt(300);
      list.add(new int[] {r.nextInt(kinds), count});
    }
    return list;
  }

  /** Draws {@code kind} from {@code p}; returns the first share word of each item. */
  private static long[] draw(SpdzPreprocessing p, int kind, int count, int words, int party) {
    Shares s;
    long[] values = null;
    if (kind == 0) {
      s = p.triples(count).a();
    } else if (kind == 1) {
      s = p.randomElements(count);
    } else if (kind == 2) {
      s = p.randomBits(count);
    } else {
      int owner = (kind - 3) % PARTIES;
      SpdzPreprocessing.InputMasks m =
          kind < 3 + PARTIES ? p.inputMasks(owner, count) : p.inputBits(owner, count);
      s = m.shares();
      values = m.values();
      assertEquals(owner == party, values != null, "values at the owner only");
    }
    assertEquals(count, s.length);
    long[] first = new long[count];
    for (int i = 0; i < count; i++) {
      first[i] = s.share[i * words];
    }
    return first;
  }

  @ParameterizedTest(name = "groups={0} field={1}")
  @CsvSource({"2, m61", "3, m127", "5, m61"})
  void groupsOnThreads_disjointSlices_sameAtEveryParty_sourceDrawnInChunkOrder(
      int k, String fieldName) throws Exception {
    Field field = Fields.byName(fieldName);
    ExecutorService pool = Executors.newFixedThreadPool(k);
    try {
      // positions[party][g]: per request, the stream positions of the items group g got
      List<List<List<long[]>>> positions = new ArrayList<>();
      for (int party = 0; party < PARTIES; party++) {
        RecordingPreprocessing source =
            new RecordingPreprocessing(
                new InsecureDealer(field, party, PARTIES, 12, Long.MAX_VALUE), field, PARTIES);
        SlicedPreprocessing sliced =
            new SlicedPreprocessing(source, party, PARTIES, field.words(), k);
        sliced.beforeRun(k);
        List<Future<List<long[]>>> runs = new ArrayList<>();
        for (int g = 0; g < k; g++) {
          SpdzPreprocessing view = sliced.group(g);
          SplittableRandom timing = new SplittableRandom(1000L * party + g); // differs by party
          int group = g;
          int self = party;
          Callable<List<long[]>> run =
              () -> {
                List<long[]> got = new ArrayList<>();
                for (int[] q : requests(group)) {
                  if (timing.nextInt(4) == 0) {
                    // the pause is the point: it varies the groups' interleaving, waits for nothing
                    Thread.sleep(timing.nextInt(3));
                  }
                  long[] words = draw(view, q[0], q[1], field.words(), self);
                  long[] at = new long[words.length];
                  for (int i = 0; i < words.length; i++) {
                    at[i] = source.positionOf(q[0], words[i]);
                  }
                  got.add(at);
                }
                return got;
              };
          runs.add(pool.submit(run));
        }
        List<List<long[]>> byGroup = new ArrayList<>();
        for (Future<List<long[]>> f : runs) {
          byGroup.add(f.get());
        }
        positions.add(byGroup);
        assertDisjointAndInChunkOrder(byGroup, source, k);
      }
      for (int party = 1; party < PARTIES; party++) {
        for (int g = 0; g < k; g++) {
          List<long[]> mine = positions.get(party).get(g);
          List<long[]> first = positions.get(0).get(g);
          for (int i = 0; i < mine.size(); i++) {
            assertEquals(
                java.util.Arrays.toString(first.get(i)),
                java.util.Arrays.toString(mine.get(i)),
                "P" + party + " group " + g + " request " + i);
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void assertDisjointAndInChunkOrder(
      List<List<long[]>> byGroup, RecordingPreprocessing source, int k) {
    int kinds = PositionAgreement.kinds(PARTIES);
    // every draw from the source is a whole chunk, in order from position 0, per kind
    long[] next = new long[kinds];
    for (RecordingPreprocessing.Draw d : source.draws()) {
      assertEquals(CHUNK, d.count(), "whole chunks");
      assertEquals(next[d.kind()], d.from(), "chunk order of kind " + d.kind());
      next[d.kind()] += CHUNK;
    }
    for (int kind = 0; kind < kinds; kind++) {
      Set<Long> seen = new HashSet<>();
      for (int g = 0; g < k; g++) {
        List<int[]> asked = requests(g);
        long expect = 0; // the g-th stream: chunks g, g + k, ... in order
        for (int i = 0; i < asked.size(); i++) {
          if (asked.get(i)[0] != kind) {
            continue;
          }
          for (long at : byGroup.get(g).get(i)) {
            long chunk = expect / CHUNK;
            long want = (chunk * k + g) * CHUNK + expect % CHUNK;
            assertEquals(want, at, "group " + g + " kind " + kind);
            assertTrue(seen.add(at), "item " + at + " of kind " + kind + " handed out twice");
            expect++;
          }
        }
      }
    }
  }

  @Test
  void secondRun_newDivisionAfterWhatWasDrawn_nothingHandedOutAgain() {
    Field field = Fields.MERSENNE_61;
    RecordingPreprocessing source =
        new RecordingPreprocessing(
            new InsecureDealer(field, 0, 2, 5, Long.MAX_VALUE), field, PARTIES - 1);
    SlicedPreprocessing sliced = new SlicedPreprocessing(source, 0, 2, 1, 3);
    sliced.beforeRun(3);
    long[] g2 = draw(sliced.group(2), 0, 10, 1, 0); // chunks 0 and 1 parked, chunk 2 used
    sliced.beforeRun(2);
    long[] g0 = draw(sliced.group(0), 0, 10, 1, 0); // a new division: starts at chunk 3
    long[] whole = draw(sliced.whole(), 0, 1, 1, 0); // straight from the source, after chunk 3
    assertEquals(2L * CHUNK, source.positionOf(0, g2[0]));
    assertEquals(3L * CHUNK, source.positionOf(0, g0[0]));
    assertEquals(4L * CHUNK, source.positionOf(0, whole[0]));
    assertThrows(IllegalStateException.class, () -> sliced.group(2).triples(1), "not running");
  }

  /** Counts the source's mark calls. */
  private static final class Marks extends ForwardingPreprocessing {
    int reveals;
    int passes;
    int failures;

    Marks() {
      super(new InsecureDealer(Fields.MERSENNE_61, 0, 2, 9, Long.MAX_VALUE));
    }

    @Override
    public void beforeMacReveal() {
      reveals++;
    }

    @Override
    public void macCheckPassed() {
      passes++;
    }

    @Override
    public void macCheckFailed() {
      failures++;
    }
  }

  @Test
  void checksOfTwoGroupsInFlight_markClearedOnlyWhenNoneIsLeft() {
    Marks source = new Marks();
    SlicedPreprocessing sliced = new SlicedPreprocessing(source, 0, 2, 1, 2);
    sliced.beforeRun(2);
    sliced.group(0).beforeMacReveal();
    sliced.group(1).beforeMacReveal();
    sliced.group(0).macCheckPassed();
    assertEquals(0, source.passes, "group 1's check is still in flight");
    sliced.group(1).macCheckPassed();
    assertEquals(1, source.passes);
    assertEquals(2, source.reveals);
  }

  @Test
  void checkFailedInOneGroup_staysFailed_noGroupRevealsOrDrawsAgain() {
    Marks source = new Marks();
    SlicedPreprocessing sliced = new SlicedPreprocessing(source, 0, 2, 1, 2);
    sliced.beforeRun(2);
    sliced.group(0).beforeMacReveal();
    sliced.group(1).beforeMacReveal();
    sliced.group(1).macCheckFailed();
    sliced.group(0).macCheckPassed();
    assertEquals(0, source.passes, "a failed check is never cleared");
    assertEquals(1, source.failures);
    AbortException reveal =
        assertThrows(AbortException.class, () -> sliced.group(0).beforeMacReveal());
    assertTrue(reveal.getMessage().startsWith("MAC check failed in another session group"));
    assertThrows(AbortException.class, () -> sliced.group(0).triples(1));
    assertThrows(AbortException.class, () -> sliced.whole().beforeMacReveal());
    assertEquals(2, source.reveals);
  }

  @Test
  void insecureDealer_noPositions_groupsReportNone() {
    SlicedPreprocessing sliced =
        new SlicedPreprocessing(
            new InsecureDealer(Fields.MERSENNE_61, 1, 2, 3, Long.MAX_VALUE), 1, 2, 1, 2);
    sliced.beforeRun(2);
    assertNull(sliced.group(1).positions());
  }
}
