package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Select;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.ForwardingSuite;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 17, finding 2: under SPDZ an input declared k-bit is in range at every party, whatever its
 * owner sends. A corrupt P0 bypasses its own process's range check and, through a decorator of its
 * suite, sends words of its choice as the packed bits c of its input x (consistently: its own view
 * is the same), and records every opening it completes. In {@code lt = z0 < x; m = mux(lt, x, y); m
 * < z1} the statistically masked openings of the comparisons depend on x; with an out-of-range x
 * (2^110 on the code before the fix) the second one showed y − x and every MAC check passed. Now x
 * is Σ_j 2^j·(c_j XOR r_j) − 2^31 for the authenticated input bits r_j: in range by construction,
 * and the computation goes on with it. An owner that sends different words to different parties, or
 * more words than the input has, makes every honest party abort before any opening.
 */
class SpdzInputRangeAttackTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Field M127 = Fields.MERSENNE_127;
  private static final int K = 32;
  private static final int PARTIES = 3;
  private static final long Y = 77;
  private static final long Z0 = -3;
  private static final long Z1 = 40;

  /** Every opening a party completed (it had every other party's share): what it learned. */
  private static final class RecordingSuite extends ForwardingSuite {
    final List<BigInteger> completedOpenings = Collections.synchronizedList(new ArrayList<>());

    RecordingSuite(Suite delegate) {
      super(delegate);
    }

    @Override
    public RoundProtocol open(Shares a, int receiver) {
      return CorruptParty.recordingOpened(
          delegate.open(a, receiver), a.length, field(), completedOpenings);
    }
  }

  /**
   * A party's SPDZ suite; at a corrupt owner ({@code words} not null) its own inputs of a declared
   * width send the words {@code words} returns for their input bits r (one packed element each, as
   * {@link SpdzPreprocessing#inputBits} gives them), any number of them, whatever it declared, and
   * keep the first ⌈k·m/64⌉ of them (zeros for missing ones) as their own c: its own view is what
   * it sent.
   */
  private static final class CorruptOwner extends ForwardingSuite {
    private final UnaryOperator<long[]> words;

    CorruptOwner(Suite spdz, UnaryOperator<long[]> words) {
      super(spdz);
      this.words = words;
    }

    @Override
    public RoundProtocol input(int owner, long[] values, int length, int bits) {
      RoundProtocol input = delegate.input(owner, values, length, bits);
      if (words == null || owner != myId()) {
        return input;
      }
      SpdzRangeInput honest = (SpdzRangeInput) input;
      long[] sent = words.apply(honest.inputBits().values().clone());
      long[] c = honest.maskedBits();
      Arrays.fill(c, 0L);
      System.arraycopy(sent, 0, c, 0, Math.min(sent.length, c.length));
      return TamperingSuite.rewritten(
          honest, myId(), parties(), (round, peer, honestWords) -> sent, round -> true);
    }
  }

  /**
   * SPDZ where P0 inputs through {@code words} (null: honestly) and misbehaves through {@code
   * tamper} (null: not); P0's recording suite goes to {@code p0}.
   */
  private static SuiteFactory corruptP0(
      long dealerSeed, UnaryOperator<long[]> words, Tamper tamper, List<RecordingSuite> p0) {
    return CorruptParty.decorated(
        SpdzSuite.factory(SpdzConfig.insecureDealer(M127, dealerSeed)),
        (party, suite) -> {
          // Every party's suite is decorated alike: the engines compare their suites' class names.
          Suite owner = new CorruptOwner(suite, party == 0 ? words : null);
          RecordingSuite recording =
              new RecordingSuite(new TamperingSuite(owner, party == 0 ? tamper : null));
          if (party == 0) {
            p0.add(recording);
          }
          return recording;
        });
  }

  /**
   * The issue's program: P0 inputs x, P1 z0 and z1, P2 y, all declared 32-bit; opens the second
   * comparison and x itself (to check its range).
   */
  private static Computation<long[]> issueProgram(long x, long y, long z0, long z1) {
    return b -> {
      SecretVector xs = b.input(0, b.myId() == 0 ? new long[] {x} : null, 1, K);
      SecretVector zs0 = b.input(1, b.myId() == 1 ? new long[] {z0} : null, 1, K);
      SecretVector zs1 = b.input(1, b.myId() == 1 ? new long[] {z1} : null, 1, K);
      SecretVector ys = b.input(2, b.myId() == 2 ? new long[] {y} : null, 1, K);
      SecretVector lt = Comparison.lessThan(b, zs0, xs, K);
      SecretVector m = Select.mux(b, lt, xs, ys);
      Deferred<long[]> result = b.open(Comparison.lessThan(b, m, zs1, K));
      Deferred<long[]> opened = b.open(xs);
      return () -> new long[] {result.get()[0], opened.get()[0]};
    };
  }

  /** The oracle of the issue's program for x: (m < z1) with m = z0 < x ? x : y. */
  private static long oracle(long x) {
    long m = Z0 < x ? x : Y;
    return m < Z1 ? 1 : 0;
  }

  /**
   * The value a 32-bit input takes when its owner sends {@code word} (its low 32 bits: the rest is
   * padding) against input bits {@code r}: Σ_j 2^j·(c_j XOR r_j) − 2^31, computed here bit by bit.
   */
  private static long decoded(long word, long[] r) {
    long u = 0;
    for (int j = 0; j < K; j++) {
      long c = (word >>> j) & 1;
      long bit = c ^ (M127.toBigInteger(r, j).longValueExact());
      u += bit << j;
    }
    return u - (1L << (K - 1));
  }

  /** The low 64 bits of (v + 2^31) XOR r over the 32 input bits r: what encodes v in one word. */
  private static long encoding(BigInteger v, long[] r) {
    long u = v.add(BigInteger.ONE.shiftLeft(K - 1)).longValue();
    for (int j = 0; j < K; j++) {
      u ^= (M127.toBigInteger(r, j).longValueExact()) << j;
    }
    return u;
  }

  private static void assertHonestPartiesAbort(PartyFailedException e, String prefix) {
    CorruptParty.assertHonestPartiesAbort(e, PARTIES, 0, prefix);
  }

  /** The word a corrupt owner sends, as a function of its input bits r. */
  enum Attack {
    /** Every bit set, padding included. */
    ALL_ONES {
      @Override
      long word(long[] r) {
        return -1L;
      }
    },
    /** Meant as 2^40 + 5: bit 40 lies in the padding, which decodes to nothing. */
    TWO_TO_THE_40_PLUS_5 {
      @Override
      long word(long[] r) {
        return encoding(BigInteger.ONE.shiftLeft(40).add(BigInteger.valueOf(5)), r);
      }
    },
    /** x + 2^31 with x the largest value: the top of the range, chosen by the owner. */
    TOP_OF_RANGE {
      @Override
      long word(long[] r) {
        return encoding(BigInteger.valueOf((1L << (K - 1)) - 1), r);
      }
    };

    abstract long word(long[] r);
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @CsvSource({"ALL_ONES, 11", "ALL_ONES, 12", "TWO_TO_THE_40_PLUS_5, 13", "TOP_OF_RANGE, 14"})
  void issueProgram_corruptOwnerSendsAnyWords_inputDecodesInRangeAndMaskedOpeningsHideYMinusX(
      Attack attack, long seed) {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    AtomicLong x = new AtomicLong();
    UnaryOperator<long[]> words =
        r -> {
          long word = attack.word(r);
          x.set(decoded(word, r)); // what the honest parties must end up with
          return new long[] {word};
        };
    List<Result<long[]>> results =
        new LocalParties(
                PARTIES,
                corruptP0(seed, words, null, p0),
                EngineConfig.defaults().withInsecureSeed(seed + 100),
                TIMEOUT)
            .run(issueProgram(5, Y, Z0, Z1));

    long xs = x.get();
    assertTrue(xs >= -(1L << (K - 1)) && xs < (1L << (K - 1)), "decoded x in range: " + xs);
    if (attack == Attack.TWO_TO_THE_40_PLUS_5) {
      assertEquals(5, xs, "the padding bit 40 is not part of the input");
    }
    if (attack == Attack.TOP_OF_RANGE) {
      assertEquals((1L << (K - 1)) - 1, xs);
    }
    for (Result<long[]> r : results) {
      assertArrayEquals(new long[] {oracle(xs), xs}, r.value(), "result and x at every party");
    }
    // What P0 saw of the masked openings: never y − x in the top bits, as on the old code.
    assertEquals(1, p0.size());
    assertFalse(p0.get(0).completedOpenings.isEmpty());
    for (BigInteger opened : p0.get(0).completedOpenings) {
      assertNotEquals(BigInteger.valueOf(Y - xs), opened.shiftRight(95), "P0 read y − x");
    }
  }

  // 2^110 + 5 as the issue's attacker meant it: the owner sends a second word with the high bits.
  // The input is one word long, so P0's frame of that round holds a word more than the round's
  // messages: every honest party refuses it in the input round, naming P0 (the extra word shifts
  // what the gates after the input read, so the first read that fails names it: an element outside
  // the field, or else the frame's unexpected word at the end of the round).
  @Test
  void issueProgram_ownerSendsMoreWordsThanTheInputHas_honestPartiesAbortBeforeAnyOpening() {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    BigInteger v = BigInteger.ONE.shiftLeft(110).add(BigInteger.valueOf(5));
    UnaryOperator<long[]> words = r -> new long[] {encoding(v, r), v.shiftRight(64).longValue()};
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                new LocalParties(
                        PARTIES,
                        corruptP0(15, words, null, p0),
                        EngineConfig.defaults().withInsecureSeed(115),
                        TIMEOUT)
                    .run(issueProgram(5, Y, Z0, Z1)));
    assertHonestPartiesAbort(e, "P0 sent ");
    assertNoOpeningReceived(p0);
  }

  // P0 sends P2 other bits than P1 (and than it keeps itself): the broadcast digests differ, and
  // the check before the first masked opening catches it.
  @ParameterizedTest(name = "bit {0}")
  @CsvSource({"0", "31", "40"})
  void issueProgram_differentWordsToDifferentParties_honestPartiesAbortBeforeAnyOpening(int bit) {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    Tamper lieToP2 =
        (message, peer, words, count) -> {
          if (message == Tamper.Message.INPUT && peer == 2) {
            words[0] ^= 1L << bit; // bit 40: padding, which the digest still covers
          }
        };
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                new LocalParties(
                        PARTIES,
                        corruptP0(16, null, lieToP2, p0),
                        EngineConfig.defaults().withInsecureSeed(116),
                        TIMEOUT)
                    .run(issueProgram(5, Y, Z0, Z1)));
    assertHonestPartiesAbort(e, "input broadcast check failed (check 0): P");
    assertNoOpeningReceived(p0);
  }

  private static void assertNoOpeningReceived(List<RecordingSuite> p0) {
    assertEquals(1, p0.size());
    assertEquals(
        List.of(),
        p0.get(0).completedOpenings,
        "the corrupt P0 received honest shares of openings that depend on its input");
  }

  @Test
  void issueProgram_honestInputs_matchOracle() {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    SuiteFactory suite = corruptP0(21, null, null, p0); // P0 records, but inputs honestly
    long[][] cases = { // x, y, z0, z1
      {5, 77, -3, 40}, {-(1L << 31), (1L << 31) - 1, 0, -1}, {(1L << 31) - 1, -5, -(1L << 31), 0}
    };
    for (long[] c : cases) {
      List<Result<long[]>> results =
          new LocalParties(PARTIES, suite, EngineConfig.defaults().withInsecureSeed(22), TIMEOUT)
              .run(issueProgram(c[0], c[1], c[2], c[3]));
      long m = c[2] < c[0] ? c[0] : c[1];
      long expected = m < c[3] ? 1 : 0;
      for (Result<long[]> r : results) {
        assertArrayEquals(new long[] {expected, c[0]}, r.value(), () -> "case x = " + c[0]);
      }
    }
    assertTrue(p0.size() == 3 && !p0.get(0).completedOpenings.isEmpty());
  }

  /** −2^(k−1), 2^(k−1) − 1, 0 and −1 (distinct ones only). */
  private static long[] edges(int k) {
    long min = k == 64 ? Long.MIN_VALUE : -(1L << (k - 1));
    long max = k == 64 ? Long.MAX_VALUE : (1L << (k - 1)) - 1;
    return java.util.stream.LongStream.of(min, max, 0, -1).distinct().toArray();
  }

  @ParameterizedTest(name = "k = {0}")
  @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2, 32, 64})
  void lessThan_honestInputsAtEveryEdge_matchOracle(int k) {
    long[] e = edges(k);
    int m = e.length * e.length;
    long[] xs = new long[m];
    long[] ys = new long[m];
    for (int i = 0; i < m; i++) {
      xs[i] = e[i / e.length];
      ys[i] = e[i % e.length];
    }
    Computation<long[]> c =
        b -> {
          SecretVector x = b.input(0, b.myId() == 0 ? xs : null, m, k);
          SecretVector y = b.input(2, b.myId() == 2 ? ys : null, m, k);
          return b.open(b.concat(x, b.concat(y, Comparison.lessThan(b, x, y, k))));
        };
    long[] expected = new long[3 * m];
    for (int i = 0; i < m; i++) {
      expected[i] = xs[i];
      expected[m + i] = ys[i];
      expected[2 * m + i] = xs[i] < ys[i] ? 1 : 0;
    }
    SuiteFactory suite = SpdzSuite.factory(SpdzConfig.insecureDealer(M127, 30 + k));
    for (Result<long[]> r :
        new LocalParties(PARTIES, suite, EngineConfig.defaults().withInsecureSeed(k), TIMEOUT)
            .run(c)) {
      assertArrayEquals(expected, r.value());
    }
  }

  /**
   * The widest input the builder accepts, too wide for any statistical mask: proven all the same.
   */
  @Test
  void input_widestDeclaredBits_edgesOpenExactly() {
    int k = M127.bitLength() - 1;
    BigInteger half = BigInteger.ONE.shiftLeft(k - 1);
    BigInteger[] edges = {
      half.negate(), half.subtract(BigInteger.ONE), BigInteger.ZERO, BigInteger.ONE.negate()
    };
    Computation<BigInteger[]> c =
        b -> {
          List<dev.cohort.api.Secret> xs = new ArrayList<>();
          for (BigInteger v : edges) {
            xs.add(b.input(1, v, k));
          }
          return b.openBig(b.vector(xs));
        };
    SuiteFactory suite = SpdzSuite.factory(SpdzConfig.insecureDealer(M127, 40));
    for (Result<BigInteger[]> r :
        new LocalParties(PARTIES, suite, EngineConfig.defaults().withInsecureSeed(41), TIMEOUT)
            .run(c)) {
      assertArrayEquals(edges, r.value());
    }
  }
}
