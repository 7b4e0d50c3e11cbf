package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.random.Prg;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Clients that cheat or fail, over three BGW sessions: each is refused on arrival or left out of
 * its session and counted, and every session's sum is the plaintext sum of the honest clients'
 * values, computed here.
 */
class BogusClientsTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final Field FIELD = Fields.MERSENNE_61;
  private static final Shape SHAPE = new Shape(8, 16);
  private static final int OUT_OF_RANGE = 100;
  private static final int INCONSISTENT = 101;
  private static final int DROPOUT = 102;
  private static final int WRONG_LENGTH = 103;
  private static final int NON_CANONICAL = 104;
  private static final int LATE = 106;

  /** What the driver saw, to compare with what the servers computed. */
  private record Seen(List<long[]> expectedSums, Map<String, Status> statuses) {}

  @Test
  void cheatingAndFailingClients_areRefusedOrExcluded_andTheSumsAreTheHonestOnes() {
    Servers.Run<Seen> run =
        Servers.run(
            3,
            FIELD,
            SHAPE,
            3,
            // servers 0 and 1 receive 53 submissions per session, server 2 (no dropout) 52
            (p, b) -> b.closeAfter(p == 2 ? 52 : 53).deadline(WAIT),
            BogusClientsTest::drive);
    Seen seen = run.driver();
    assertEquals(Status.DUPLICATE, seen.statuses().get("duplicate"));
    assertEquals(Status.MALFORMED, seen.statuses().get("wrong length"));
    assertEquals(Status.MALFORMED, seen.statuses().get("non-canonical"));
    assertEquals(Status.NOT_OPEN, seen.statuses().get("replay"));
    assertEquals(Status.LATE, seen.statuses().get("late"));
    Map<String, Long> refused = run.servers()[0].stats().refusedByReason();
    assertEquals(1, refused.get("duplicate"));
    assertEquals(2, refused.get("malformed"));
    assertEquals(1, refused.get("not_open"));
    assertEquals(1, refused.get("late"));
    Map<String, Long> excluded = run.servers()[0].stats().excludedByReason();
    assertEquals(3, excluded.get(Exclusion.NOT_AT_EVERY_SERVER.label));
    assertEquals(1, excluded.get(Exclusion.OUT_OF_RANGE.label));
    assertEquals(1, excluded.get(Exclusion.INCONSISTENT_SHARES.label));
    long[] running;
    for (int p = 0; p < 3; p++) {
      List<SessionOutcome<long[]>> outcomes = run.outcomes().get(p);
      running = new long[2];
      for (int s = 0; s < 3; s++) {
        SessionOutcome<long[]> o = outcomes.get(s);
        long[] expected = seen.expectedSums().get(s);
        running[0] += expected[0];
        running[1] += expected[1];
        assertArrayEquals(
            new long[] {expected[0], expected[1], running[0], running[1]},
            o.value(),
            "server " + p + " session " + (s + 1));
        assertEquals(s == 0 ? 50 : 52, o.contributors());
        assertEquals(p == 2 ? 0 : 1, o.excluded(Exclusion.NOT_AT_EVERY_SERVER));
        assertEquals(s == 0 ? 1 : 0, o.excluded(Exclusion.OUT_OF_RANGE));
        assertEquals(s == 0 ? 1 : 0, o.excluded(Exclusion.INCONSISTENT_SHARES));
      }
    }
  }

  private static Seen drive(InMemoryClients mem) {
    SplittableRandom random = new SplittableRandom(7);
    Map<String, Status> statuses = new java.util.HashMap<>();
    List<long[]> sums = new ArrayList<>();
    Prg prg = Prg.seeded(3);
    Shamir shamir = new Shamir(FIELD, 3, 1);

    InMemoryClients.End[] honest = new InMemoryClients.End[52];
    Client[] clients = new Client[52];
    for (int c = 0; c < 52; c++) {
      honest[c] = mem.connect(c);
      clients[c] = Client.over(honest[c], WAIT);
    }
    InMemoryClients.End outOfRange = mem.connect(OUT_OF_RANGE);
    InMemoryClients.End inconsistent = mem.connect(INCONSISTENT);
    InMemoryClients.End dropout = mem.connect(DROPOUT);
    InMemoryClients.End wrongLength = mem.connect(WRONG_LENGTH);
    InMemoryClients.End nonCanonical = mem.connect(NON_CANONICAL);
    InMemoryClients.End late = mem.connect(LATE);

    // session 1: the cheats first, so that they arrive before the session closes
    long s1 = awaitOpen(outOfRange, 1);
    long[] bits = honestBits(new long[] {3, -5});
    bits[4] = 2; // not a bit: value 0 would become 3 + 2·2^4 + ... outside [-128, 128)
    send(outOfRange, s1, forge(shamir, bits, prg), 3);
    long[][] shares = BgwSubmissions.deal(shamir, SHAPE, new long[] {1, 1}, prg);
    shares[2][0] = (shares[2][0] + 1) % FIELD.modulus().longValue();
    send(inconsistent, s1, shares, 3);
    send(dropout, s1, BgwSubmissions.deal(shamir, SHAPE, new long[] {9, 9}, prg), 2);
    // a second submission of the same client to the same session
    inconsistent.send(0, Messages.submit(s1, true, SHAPE.bits(), shares[0]));
    statuses.put("duplicate", ack(inconsistent, 0));
    long[][] dropped = BgwSubmissions.deal(shamir, SHAPE, new long[] {9, 9}, prg);
    byte[] replay = Messages.submit(s1, true, SHAPE.bits(), dropped[0]);
    wrongLength.send(0, Messages.submit(s1, true, SHAPE.bits(), new long[5]));
    statuses.put("wrong length", ack(wrongLength, 0));
    long[][] bad = BgwSubmissions.deal(shamir, SHAPE, new long[] {0, 0}, prg);
    bad[0][3] = -1L; // 2^64 - 1 is no element of 2^61 - 1
    nonCanonical.send(0, Messages.submit(s1, true, SHAPE.bits(), bad[0]));
    statuses.put("non-canonical", ack(nonCanonical, 0));
    long[] sum1 = new long[2];
    submitAll(clients, 0, 50, random, sum1);
    sums.add(sum1);

    // session 2: honest clients and the dropout again
    long s2 = awaitOpen(dropout, s1 + 1);
    long[][] lateShares = BgwSubmissions.deal(shamir, SHAPE, new long[] {5, 5}, prg);
    send(dropout, s2, BgwSubmissions.deal(shamir, SHAPE, new long[] {9, 9}, prg), 2);
    long[] sum2 = new long[2];
    submitAll(clients, 0, 52, random, sum2);
    sums.add(sum2);

    // session 3: a replay of session 1 and a late submission to session 2, then honest ones
    long s3 = awaitOpen(late, s2 + 1);
    assertFalse(s3 == s2);
    dropout.send(0, replay);
    statuses.put("replay", ack(dropout, 0));
    late.send(0, Messages.submit(s2, true, SHAPE.bits(), lateShares[0]));
    statuses.put("late", ack(late, 0));
    send(dropout, s3, BgwSubmissions.deal(shamir, SHAPE, new long[] {9, 9}, prg), 2);
    long[] sum3 = new long[2];
    submitAll(clients, 0, 52, random, sum3);
    sums.add(sum3);
    return new Seen(sums, statuses);
  }

  private static long[] values(SplittableRandom random) {
    return new long[] {random.nextLong(-128, 128), random.nextLong(-(1L << 15), 1L << 15)};
  }

  private static void submitAll(
      Client[] clients, int from, int to, SplittableRandom random, long[] sum) {
    long[][] values = new long[to][];
    for (int c = from; c < to; c++) {
      values[c] = values(random);
      sum[0] += values[c][0];
      sum[1] += values[c][1];
    }
    Servers.each(
        to - from,
        8,
        k -> {
          Client.Receipt r = clients[from + k].submit(values[from + k]);
          assertTrue(r.received(), r.toString());
        });
  }

  /** The bits of {@code values} (biased) as field elements, then u = 0. */
  private static long[] honestBits(long[] values) {
    long[] bits = new long[SHAPE.elements() + 1];
    for (int c = 0; c < SHAPE.columns(); c++) {
      long biased = values[c] + (1L << (SHAPE.bits(c) - 1));
      for (int j = 0; j < SHAPE.bits(c); j++) {
        bits[SHAPE.offset(c) + j] = (biased >>> j) & 1;
      }
    }
    return bits;
  }

  /** A submission of arbitrary bit elements, dealt consistently. */
  private static long[][] forge(Shamir shamir, long[] bits, Prg prg) {
    long[][] out = new long[3][];
    for (int i = 0; i < 3; i++) {
      out[i] = new long[SHAPE.elements() + 2];
    }
    shamir.deal(bits, 0, bits.length, 1, prg, out, 0);
    shamir.deal(null, 0, 1, 2, prg, out, bits.length);
    return out;
  }

  private static void send(InMemoryClients.End end, long session, long[][] shares, int servers) {
    for (int i = 0; i < servers; i++) {
      end.send(i, Messages.submit(session, true, SHAPE.bits(), shares[i]));
      assertEquals(Status.RECEIVED, ack(end, i));
    }
  }

  /** The next acknowledgement from server {@code server}, skipping openings and outcomes. */
  private static Status ack(InMemoryClients.End end, int server) {
    while (true) {
      byte[] m = end.receive(server, WAIT);
      if (Messages.type(m) == Messages.ACK) {
        return Messages.ack(m).status();
      }
    }
  }

  /** Waits until every server announced a session at least {@code session}; returns it. */
  private static long awaitOpen(InMemoryClients.End end, long session) {
    long seen = -1;
    for (int i = 0; i < end.servers(); i++) {
      while (true) {
        byte[] m = end.receive(i, WAIT);
        if (Messages.type(m) == Messages.OPEN && Messages.open(m).session() >= session) {
          seen = Messages.open(m).session();
          break;
        }
      }
    }
    return seen;
  }
}
