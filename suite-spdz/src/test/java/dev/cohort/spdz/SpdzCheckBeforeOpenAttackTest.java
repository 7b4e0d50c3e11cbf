package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Equality;
import dev.cohort.lib.Select;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.ForwardingSuite;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * Check, then open (issue 17, finding 1): a corrupt P1 adds δ to its share of an opening and then
 * listens for what the honest parties open after it. Under SPDZ no honest party may send its share
 * of any opening but Beaver's d and e (outputs, openings to one party, statistically masked values)
 * until a MAC check covering the tampered opening has passed, and every honest party aborts with
 * the check's "MAC check failed" message before anything computed from the tampered value leaves
 * it.
 *
 * <p>What the corrupt party receives is recorded twice: by a decorator of its suite (every value
 * its openings reconstruct, from the honest parties' shares), and at the honest parties' send hook
 * (every OPEN message an honest party addresses to P1: the in-memory network delivers each, so this
 * is exactly the OPEN shares the corrupt party receives, whatever its own code then does with
 * them). On the code before the fix both attacks below leak: the honest parties send the shares of
 * the dependent opening, and the corrupt party reconstructs δ·y (and with it y) or a masked value
 * whose top bits are y − x.
 */
class SpdzCheckBeforeOpenAttackTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final Field F = Fields.MERSENNE_127;
  private static final int N = 3;
  // Not P0: P0 adds the public values to its value share, so P0's own view of a tampered opening
  // would go into the values (the attack wants the honest P0 to use the tampered one).
  private static final int CORRUPT = 1;
  private static final int K = 32;

  /** What the corrupt party got: OPEN messages to it per honest sender, and its openings. */
  private static final class AttackerView {
    final AtomicIntegerArray openSharesFrom = new AtomicIntegerArray(N);
    final List<BigInteger> reconstructed = Collections.synchronizedList(new ArrayList<>());
  }

  /**
   * SPDZ over 2^127 − 1 where P1 applies {@code attack} to what it sends and records its openings,
   * and the honest parties report each OPEN message they address to P1.
   */
  private static SuiteFactory attacked(long seed, Tamper attack, AttackerView view) {
    return CorruptParty.factory(
        SpdzConfig.insecureDealer(F, seed),
        CORRUPT,
        attack,
        (sender, message, peer, count) -> {
          if (message == Tamper.Message.OPEN && peer == CORRUPT) {
            view.openSharesFrom.incrementAndGet(sender);
          }
        },
        // every party's suite is decorated: the engines compare their suites' class names
        (party, suite) -> new RecordingSuite(suite, party == CORRUPT ? view : null));
  }

  /** A party's suite: the corrupt one ({@code view} not null) records what it reconstructs. */
  private static final class RecordingSuite extends ForwardingSuite {
    private final AttackerView view;

    RecordingSuite(Suite delegate, AttackerView view) {
      super(delegate);
      this.view = view;
    }

    @Override
    public RoundProtocol open(Shares a, int receiver) {
      RoundProtocol open = delegate.open(a, receiver);
      if (view == null) {
        return open;
      }
      return CorruptParty.recordingOpened(open, a.length, F, view.reconstructed);
    }
  }

  /** Adds {@code delta} to element 0 of the first {@code target} message to each peer. */
  private static Tamper addToFirst(Tamper.Message target, long delta) {
    return CorruptParty.once(target, 0, CorruptParty.add(F, delta, target, -1));
  }

  private static <T> List<Result<T>> run(SuiteFactory suite, long seed, Computation<T> c) {
    return new LocalParties(N, suite, EngineConfig.defaults().withInsecureSeed(seed), TIMEOUT)
        .run(c);
  }

  /** Every honest party failed with the MAC check's abort. */
  private static void assertHonestPartiesFailTheMacCheck(PartyFailedException e) {
    CorruptParty.assertHonestPartiesAbort(e, N, CORRUPT, "MAC check failed (check ");
  }

  // ---- attacks ----

  @Test
  void open_afterTamperedBeaverOpening_honestPartiesAbortBeforeSendingTheirShares() {
    long x = 987_654_321L;
    long y = -1_234_567L; // P2's secret
    long delta = 1_000_003L;
    AttackerView view = new AttackerView();
    SuiteFactory suite = attacked(71, addToFirst(Tamper.Message.MULTIPLY, delta), view);
    Computation<Long> c =
        b -> {
          Secret sx = b.input(0, x, K);
          Secret sy = b.input(2, y, K);
          return b.open(b.sub(b.mul(sx, sy), b.mul(sx, sy))); // 0, or δ·(y − y_1) after the tamper
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, 71, c));

    // P1 computed with the true d, the honest parties with d + δ: the output would be δ·(y − y_1),
    // and P1, knowing δ and its share y_1 of y, would read y off it.
    assertTrue(view.reconstructed.isEmpty(), "the corrupt party opened " + view.reconstructed);
    for (int p = 0; p < N; p++) {
      if (p != CORRUPT) {
        assertEquals(
            0, view.openSharesFrom.get(p), "P" + p + " sent its share of the output to P1");
      }
    }
    assertHonestPartiesFailTheMacCheck(e);
  }

  @Test
  void lessThanOfMax_tamperedFirstMaskedOpening_secondMaskedOpeningNeverSent() {
    long x = 1_000;
    long y = 1_777; // the difference the attack would read off the second masked opening
    long z = 5_000;
    AttackerView view = new AttackerView();
    SuiteFactory suite = attacked(72, addToFirst(Tamper.Message.OPEN, 1), view);
    Computation<long[]> c =
        b -> {
          SecretVector sx = b.input(0, new long[] {x}, 1, K);
          SecretVector sy = b.input(2, new long[] {y}, 1, K);
          SecretVector sz = b.input(0, new long[] {z}, 1, K);
          SecretVector max = Select.mux(b, Comparison.lessThan(b, sx, sy, K), sy, sx);
          return b.open(Comparison.lessThan(b, max, sz, K));
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, 72, c));

    for (BigInteger opened : view.reconstructed) { // what the attack reads on the code before
      assertNotEquals(
          BigInteger.valueOf(y - x), opened.shiftRight(95), "P1 read y − x off a masked value");
    }
    // The first comparison's masked c (the opening P1 tampered with) is all P1 may see.
    assertEquals(1, view.reconstructed.size(), "openings the corrupt party reconstructed");
    for (int p = 0; p < N; p++) {
      if (p != CORRUPT) {
        assertEquals(
            1,
            view.openSharesFrom.get(p),
            "OPEN messages P" + p + " sent to P1: only the first comparison's masked value");
      }
    }
    assertHonestPartiesFailTheMacCheck(e);
  }

  @Test
  void auction_tamperedFirstRoundOfTheTournament_noLaterMaskedValueOrBidSent() {
    // the auction demo's computation: each party bids; the highest bid and its bidder are opened
    long[] bids = {100, 31_000, 27_500};
    AttackerView view = new AttackerView();
    SuiteFactory suite = attacked(79, addToFirst(Tamper.Message.OPEN, 1), view);
    Computation<long[]> c =
        b -> {
          List<Secret> all = new ArrayList<>();
          for (int p = 0; p < N; p++) {
            all.add(b.input(p, b.myId() == p ? bids[p] : 0, 16));
          }
          SecretVector vector = b.vector(all);
          Deferred<Long> highest = b.open(dev.cohort.lib.Extremes.max(b, vector, 16));
          Deferred<Long> winner = b.open(dev.cohort.lib.Extremes.argmax(b, vector, 16));
          return () -> new long[] {highest.get(), winner.get()};
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, 79, c));

    for (BigInteger opened : view.reconstructed) {
      assertTrue(
          !opened.equals(BigInteger.valueOf(bids[2])), "the corrupt party saw the losing bid");
    }
    for (int p = 0; p < N; p++) {
      if (p != CORRUPT) {
        assertEquals(
            1,
            view.openSharesFrom.get(p),
            "OPEN messages P" + p + " sent to P1: only the tournament's first masked values");
      }
    }
    assertHonestPartiesFailTheMacCheck(e);
  }

  @Test
  void openTo_afterTamperedBeaverOpening_receiverMaskedValueNeverSent() {
    long x = 31_337;
    long y = -4_242;
    AttackerView view = new AttackerView();
    SuiteFactory suite = attacked(73, addToFirst(Tamper.Message.MULTIPLY, 5), view);
    Computation<Long> c =
        b -> {
          Secret sx = b.input(0, x, K);
          Secret sy = b.input(2, y, K);
          return b.openTo(CORRUPT, b.sub(b.mul(sx, sy), b.mul(sx, sy)));
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, 73, c));

    assertTrue(view.reconstructed.isEmpty(), "the corrupt party opened " + view.reconstructed);
    for (int p = 0; p < N; p++) {
      if (p != CORRUPT) {
        assertEquals(0, view.openSharesFrom.get(p), "P" + p + " sent its masked share to P1");
      }
    }
    assertHonestPartiesFailTheMacCheck(e);
  }

  @Test
  void open_afterInconsistentInputBroadcast_honestPartiesAbortBeforeSendingTheirShares() {
    AttackerView view = new AttackerView();
    // P1 owns x and sends P2 other masked bits than P0
    Tamper lieToP2 =
        (message, peer, words, count) -> {
          if (message == Tamper.Message.INPUT && peer == 2) {
            words[0] ^= 1; // the input's bits are packed: flip x's lowest one
          }
        };
    SuiteFactory suite = attacked(77, lieToP2, view);
    Computation<Long> c = b -> b.open(b.add(b.input(1, 10, K), b.input(2, 123_456, K)));
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, 77, c));

    assertTrue(view.reconstructed.isEmpty(), "the corrupt party opened " + view.reconstructed);
    for (int p = 0; p < N; p++) {
      if (p != CORRUPT) {
        assertEquals(0, view.openSharesFrom.get(p), "P" + p + " sent its share of the output");
      }
    }
    List<Throwable> causes = new ArrayList<>(List.of(e.getCause()));
    for (Throwable other : e.getSuppressed()) {
      causes.add(other.getCause());
    }
    assertEquals(N, causes.size(), "every party fails");
    for (Throwable cause : causes) {
      assertTrue(
          cause.getMessage().startsWith("input broadcast check failed (check 0): P"),
          cause.getMessage());
    }
  }

  // ---- honest runs ----

  private static final long[] XS = {
    -(1L << 31), (1L << 31) - 1, 0, -1, 1, 12_345, -99_999, 7, (1L << 31) - 1, -(1L << 31)
  };
  private static final long[] YS = {
    (1L << 31) - 1, -(1L << 31), 0, -1, 2, 12_345, 99_999, -7, (1L << 31) - 2, -(1L << 31)
  };

  @Test
  void comparisonEqualityOpenToAndOutputs_honestParties_matchTheOracle() {
    int n = XS.length;
    Computation<long[]> c =
        b -> {
          SecretVector sx = b.input(0, b.myId() == 0 ? XS : null, n, K);
          SecretVector sy = b.input(2, b.myId() == 2 ? YS : null, n, K);
          SecretVector lt = Comparison.lessThan(b, sx, sy, K);
          SecretVector eq = Equality.equal(b, sx, sy, K);
          SecretVector max = Select.mux(b, lt, sy, sx);
          Deferred<Long> first = b.openTo(1, b.get(max, 0));
          Deferred<long[]> all = b.open(b.concat(b.concat(lt, eq), max));
          return () -> {
            long[] v = all.get();
            long[] out = java.util.Arrays.copyOf(v, v.length + 1);
            out[v.length] = b.myId() == 1 ? first.get() : Long.MIN_VALUE;
            return out;
          };
        };
    long[] expected = new long[3 * n + 1];
    for (int i = 0; i < n; i++) {
      expected[i] = XS[i] < YS[i] ? 1 : 0;
      expected[n + i] = XS[i] == YS[i] ? 1 : 0;
      expected[2 * n + i] = Math.max(XS[i], YS[i]);
    }
    List<Result<long[]>> results = run(SpdzSuite.insecureFactory(F, 74), 74, c);
    for (int p = 0; p < N; p++) {
      expected[3 * n] = p == 1 ? Math.max(XS[0], YS[0]) : Long.MIN_VALUE;
      assertArrayEquals(expected, results.get(p).value(), "P" + p);
    }
  }

  @Test
  void open_nothingUnchecked_addsNoRound() {
    // random elements come from preprocessing: nothing was opened or input before the opening
    for (Result<BigInteger[]> r :
        run(SpdzSuite.insecureFactory(F, 75), 75, b -> b.openBig(b.random(4)))) {
      assertEquals(4, r.value().length);
      assertEquals(1 + 3, r.metrics().rounds(), "the opening, the end check");
    }
  }

  @Test
  void open_onlyInputsUnchecked_addsOneRound() {
    Computation<Long> sum = b -> b.open(b.add(b.input(0, 6, K), b.input(1, -7, K)));
    for (Result<Long> r : run(SpdzSuite.insecureFactory(F, 78), 78, sum)) {
      assertEquals(-1L, r.value());
      assertEquals(1 + 1 + 1 + 3, r.metrics().rounds(), "input, digests, opening, end check");
    }
  }

  @Test
  void openings_ofOneLayer_shareOneCheck() {
    Computation<Long> one = b -> b.open(b.mul(b.input(0, 6, K), b.input(1, 7, K)));
    Computation<long[]> three =
        b -> {
          Secret sx = b.input(0, 6, K);
          Secret sy = b.input(1, 7, K);
          Secret p = b.mul(sx, sy);
          Deferred<Long> a = b.open(p);
          Deferred<Long> c = b.openTo(2, b.add(p, 1));
          Deferred<long[]> d = b.openLowBits(b.vector(List.of(b.add(p, 2))), 3);
          return () ->
              new long[] {a.get(), b.myId() == 2 ? c.get() : 0, d.get()[0]}; // 42, 43, 44 mod 8
        };
    long oneRounds = run(SpdzSuite.insecureFactory(F, 76), 76, one).get(0).metrics().rounds();
    for (Result<long[]> r : run(SpdzSuite.insecureFactory(F, 76), 76, three)) {
      assertEquals(42, r.value()[0]);
      assertEquals(r.metrics().party() == 2 ? 43 : 0, r.value()[1]);
      assertEquals(44 % 8, r.value()[2]);
      assertEquals(oneRounds, r.metrics().rounds(), "three openings of one layer, one check");
    }
    // input, multiply, the check before the openings, the openings, the end check
    assertEquals(1 + 1 + 3 + 1 + 3, oneRounds);
  }
}
