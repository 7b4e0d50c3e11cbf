package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Clients that cheat, over three SPDZ sessions: each is refused on arrival or left out of its
 * session and counted, and every session's sum is the plaintext sum of the submissions that follow
 * the protocol, computed here.
 */
class SpdzBogusClientsTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Field FIELD = Fields.MERSENNE_61;
  private static final Shape SHAPE = new Shape(8, 16);
  private static final int NOT_A_BIT = 100;
  private static final int TWO_VALUES = 101;
  private static final int DIFFERENT = 102;
  private static final int TWICE = 103;
  private static final int DROPOUT = 104;
  private static final int NO_MASKS = 105;

  /** What the driver saw, to compare with what the servers computed. */
  private record Seen(
      List<long[]> expectedSums, Map<String, Status> statuses, Map<String, String> outcomes) {}

  @Test
  void cheatingClients_areRefusedOrExcluded_andTheSumsAreThoseOfTheValidSubmissions() {
    Servers.Run<Seen> run =
        Servers.run(
            Servers.Suite.spdz(FIELD),
            3,
            SHAPE,
            3,
            // servers 0 and 1 receive 35 submissions per session, server 2 (no dropout) 34
            (p, b) -> b.closeAfter(p == 2 ? 34 : 35).deadline(WAIT),
            SpdzBogusClientsTest::drive);
    Seen seen = run.driver();
    assertEquals(Status.DUPLICATE, seen.statuses().get("second mask request"));
    assertEquals(Status.DUPLICATE, seen.statuses().get("second submission"));
    assertEquals(Status.NO_MASKS, seen.statuses().get("another's submission"));
    assertEquals(Status.LATE, seen.statuses().get("replay into the next session"));
    assertEquals(Status.NOT_OPEN, seen.statuses().get("replay two sessions on"));
    assertEquals(Status.LATE, seen.statuses().get("masks of the last session"));
    assertEquals(Status.NOT_OPEN, seen.statuses().get("masks of an old session"));
    assertEquals(Status.NOT_OPEN, seen.statuses().get("masks of a future session"));
    assertTrue(seen.outcomes().get("different").contains("different_at_servers"));
    assertTrue(seen.outcomes().get("not a bit").contains("out_of_range"));
    assertEquals("counted", seen.outcomes().get("twice"));

    Map<String, Long> refused = run.servers()[0].stats().refusedByReason();
    assertEquals(2, refused.get("duplicate"));
    assertEquals(1, refused.get("no_masks"));
    assertEquals(3, refused.get("not_open"));
    assertEquals(2, refused.get("late"));
    Map<String, Long> excluded = run.servers()[0].stats().excludedByReason();
    assertEquals(3, excluded.get(Exclusion.NOT_AT_EVERY_SERVER.label));
    assertEquals(3, excluded.get(Exclusion.OUT_OF_RANGE.label));
    assertEquals(1, excluded.get(Exclusion.DIFFERENT_AT_SERVERS.label));
    int[] contributors = {31, 33, 34};
    int[] outOfRange = {2, 1, 0};
    for (int p = 0; p < 3; p++) {
      long[] running = new long[2];
      for (int s = 0; s < 3; s++) {
        SessionOutcome<long[]> o = run.outcomes().get(p).get(s);
        long[] expected = seen.expectedSums().get(s);
        running[0] += expected[0];
        running[1] += expected[1];
        assertArrayEquals(
            new long[] {expected[0], expected[1], running[0], running[1]},
            o.value(),
            "server " + p + " session " + (s + 1));
        assertEquals(contributors[s], o.contributors());
        assertEquals(p == 2 ? 0 : 1, o.excluded(Exclusion.NOT_AT_EVERY_SERVER));
        assertEquals(outOfRange[s], o.excluded(Exclusion.OUT_OF_RANGE));
        assertEquals(s == 0 ? 1 : 0, o.excluded(Exclusion.DIFFERENT_AT_SERVERS));
      }
    }
  }

  private static Seen drive(InMemoryClients mem) {
    SplittableRandom random = new SplittableRandom(8);
    Map<String, Status> statuses = new HashMap<>();
    Map<String, String> outcomes = new HashMap<>();
    List<long[]> sums = new ArrayList<>();
    Client[] clients = new Client[34];
    for (int c = 0; c < clients.length; c++) {
      clients[c] = Client.over(mem.connect(c), WAIT);
    }
    SpdzByHand notABit = byHand(mem, NOT_A_BIT);
    SpdzByHand twoValues = byHand(mem, TWO_VALUES);
    SpdzByHand different = byHand(mem, DIFFERENT);
    SpdzByHand twice = byHand(mem, TWICE);
    SpdzByHand dropout = byHand(mem, DROPOUT);
    SpdzByHand noMasks = byHand(mem, NO_MASKS);

    // session 1: the cheats first, so that they arrive before the session closes
    long s1 = notABit.awaitOpen(1);
    long[] bits = SpdzSubmissions.bits(FIELD, SHAPE, new long[] {3, -5});
    FIELD.encode(2, bits, 4); // not a bit: value 0 would leave [-128, 128)
    notABit.sendReceived(3, s1, SpdzSubmissions.mask(FIELD, bits, notABit.masks(s1)));

    long[] ab = twoValues.masks(s1);
    long[] one = SpdzSubmissions.bits(FIELD, SHAPE, new long[] {3, -5});
    long[] other = one.clone();
    FIELD.encode(1 - (one[0] & 1), other, 0); // bit 0 masked as 0 in d and as 1 in e
    long[] d = SpdzSubmissions.mask(FIELD, one, ab);
    long[] e = SpdzSubmissions.mask(FIELD, other, ab);
    System.arraycopy(e, SHAPE.elements(), d, SHAPE.elements(), SHAPE.elements());
    twoValues.sendReceived(3, s1, d);

    long[] honest = different.submission(new long[] {1, 1}, different.masks(s1));
    different.sendReceived(2, s1, honest);
    long[] changed = honest.clone();
    changed[7] = (changed[7] + 1) % FIELD.modulus().longValue();
    assertEquals(Status.RECEIVED, different.send(2, s1, changed));

    long[] twiceValues = {-128, 32767};
    long[] twiceWords = twice.submission(twiceValues, twice.masks(s1));
    twice.end().send(0, Messages.maskRequest(s1));
    statuses.put("second mask request", twice.ack(0));
    twice.sendReceived(3, s1, twiceWords);
    statuses.put("second submission", twice.send(0, s1, twiceWords));
    statuses.put("another's submission", noMasks.send(0, s1, twiceWords));

    dropout.sendReceived(2, s1, dropout.submission(new long[] {9, 9}, dropout.masks(s1)));
    long[] sum1 = submitAll(clients, 30, random);
    sum1[0] += twiceValues[0];
    sum1[1] += twiceValues[1];
    sums.add(sum1);
    outcomes.put("twice", twice.outcome(0).detail());

    // session 2: a replay, the same values again under new masks, and the dropout
    long s2 = twice.awaitOpen(s1 + 1);
    statuses.put("replay into the next session", twice.send(0, s1, twiceWords));
    twice.masks(s2);
    twice.sendReceived(3, s2, twiceWords); // masked with the masks of session 1: not bits now
    dropout.awaitOpen(s2);
    dropout.sendReceived(2, s2, dropout.submission(new long[] {9, 9}, dropout.masks(s2)));
    sums.add(submitAll(clients, 33, random));
    outcomes.put("different", different.outcome(0).detail());
    outcomes.put("not a bit", notABit.outcome(0).detail());

    // session 3: replays of sessions 1 and 2, mask requests for other sessions
    long s3 = notABit.awaitOpen(s2 + 1);
    assertFalse(s3 == s2);
    statuses.put("replay two sessions on", twice.send(0, s1, twiceWords));
    twoValues.end().send(0, Messages.maskRequest(s2));
    statuses.put("masks of the last session", twoValues.ack(0));
    twoValues.end().send(0, Messages.maskRequest(s1));
    statuses.put("masks of an old session", twoValues.ack(0));
    twoValues.end().send(0, Messages.maskRequest(s3 + 1));
    statuses.put("masks of a future session", twoValues.ack(0));
    dropout.awaitOpen(s3);
    dropout.sendReceived(2, s3, dropout.submission(new long[] {9, 9}, dropout.masks(s3)));
    sums.add(submitAll(clients, 34, random));
    return new Seen(sums, statuses, outcomes);
  }

  private static SpdzByHand byHand(InMemoryClients mem, int id) {
    return new SpdzByHand(mem.connect(id), FIELD, SHAPE);
  }

  /** Clients {@code 0 .. count-1} submit random values; returns their sums. */
  private static long[] submitAll(Client[] clients, int count, SplittableRandom random) {
    long[][] values = new long[count][];
    long[] sum = new long[2];
    for (int c = 0; c < count; c++) {
      values[c] = new long[] {random.nextLong(-128, 128), random.nextLong(-(1L << 15), 1L << 15)};
      sum[0] += values[c][0];
      sum[1] += values[c][1];
    }
    Servers.each(
        count,
        8,
        k -> {
          Client.Receipt r = clients[k].submit(values[k]);
          assertTrue(r.received(), r.toString());
        });
    return sum;
  }
}
