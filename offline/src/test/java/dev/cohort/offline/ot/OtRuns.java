package dev.cohort.offline.ot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cohort.harness.PartyThreads;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.random.Prg;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

/** Runs OT protocols with real parties as threads and checks their results against each other. */
final class OtRuns {

  /** Makes one party's OT protocol over its channel. */
  @FunctionalInterface
  interface Factory {
    PairwiseOts create(Channel channel, int party);
  }

  /** What one party returned from its calls, with the choices it used. */
  record PartyResult(OtBatch[] batches, long[][][] choices) {}

  private OtRuns() {}

  /**
   * Runs {@code counts.length} calls at every party; choices come from {@code Prg.seeded(seed)}.
   */
  static List<PartyResult> run(int parties, long seed, Factory factory, int... counts) {
    InMemoryNetwork network = new InMemoryNetwork(parties, Duration.ofSeconds(60));
    return PartyThreads.each(
        parties,
        party -> {
          try (Channel channel = network.channel(party)) {
            PairwiseOts ots = factory.create(channel, party);
            Prg prg = Prg.seeded(seed * 1000 + party);
            OtBatch[] batches = new OtBatch[counts.length];
            long[][][] choices = new long[counts.length][][];
            for (int call = 0; call < counts.length; call++) {
              choices[call] = randomChoices(prg, parties, party, counts[call]);
              batches[call] = ots.transfer(counts[call], choices[call]);
            }
            return new PartyResult(batches, choices);
          }
        });
  }

  static long[][] randomChoices(Prg prg, int parties, int me, int count) {
    long[][] choices = new long[parties][];
    for (int p = 0; p < parties; p++) {
      if (p != me) {
        choices[p] = new long[(count + 63) / 64];
        prg.fill(choices[p], 0, choices[p].length);
      }
    }
    return choices;
  }

  /**
   * Checks every OT of every call at both ends: the receiver holds the sender's key of its choice
   * and not the other one; and no key repeats anywhere in the run.
   */
  static void assertCorrect(List<PartyResult> results, int... counts) {
    int parties = results.size();
    long[] seen = new long[2 * parties * (parties - 1) * IntStream.of(counts).sum()];
    int filled = 0;
    for (int call = 0; call < counts.length; call++) {
      for (int s = 0; s < parties; s++) {
        OtBatch sent = results.get(s).batches()[call];
        assertNull(sent.zero()[s]);
        assertNull(sent.received()[s]);
        for (int r = 0; r < parties; r++) {
          if (r != s) {
            assertPair(
                sent,
                s,
                results.get(r).batches()[call],
                r,
                results.get(r).choices()[call][s],
                counts[call]);
            filled = collect(sent.zero()[r], sent.one()[r], seen, filled);
          }
        }
      }
    }
    // A key repeats (anywhere: across OTs, pairs, calls) iff its low word does, but for 2^-64.
    Arrays.sort(seen);
    for (int k = 1; k < seen.length; k++) {
      assertNotEquals(seen[k - 1], seen[k], "a key repeats");
    }
  }

  /** Appends the low words of every key to {@code seen} from {@code filled} on. */
  private static int collect(long[] zero, long[] one, long[] seen, int filled) {
    for (int j = 0; j < zero.length; j += 2) {
      seen[filled++] = zero[j];
      seen[filled++] = one[j];
    }
    return filled;
  }

  private static void assertPair(
      OtBatch sent, int s, OtBatch got, int r, long[] choices, int count) {
    long[] zero = sent.zero()[r];
    long[] one = sent.one()[r];
    long[] received = got.received()[s];
    assertEquals(2 * count, zero.length, "zero keys P" + s + "->P" + r);
    assertEquals(2 * count, one.length, "one keys P" + s + "->P" + r);
    assertEquals(2 * count, received.length, "received keys P" + s + "->P" + r);
    for (int j = 0; j < count; j++) {
      boolean choice = (choices[j >>> 6] >>> (j & 63) & 1) != 0;
      long[] chosen = choice ? one : zero;
      long[] other = choice ? zero : one;
      String where = "OT " + j + " P" + s + "->P" + r;
      assertEquals(chosen[2 * j], received[2 * j], where);
      assertEquals(chosen[2 * j + 1], received[2 * j + 1], where);
      assertFalse(
          other[2 * j] == received[2 * j] && other[2 * j + 1] == received[2 * j + 1],
          where + ": the other key");
    }
  }
}
