package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Computation;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.lib.Comparison;
import dev.cohort.lib.Select;
import dev.cohort.random.Prg;
import dev.cohort.suite.ForwardingSuite;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 17, finding 2: under SPDZ a declared input range is proven to every party. A corrupt P0
 * bypasses its own process's range check and records, through a decorator of its suite, every
 * opening it completes. In {@code lt = z0 < x; m = mux(lt, x, y); m < z1} the statistically masked
 * openings of the comparisons depend on P0's x; with an out-of-range x the second one used to show
 * y − x (and every MAC check passed). Now every honest party aborts before any of them: naming P0
 * when P0 inputs bits that are not bits, and at the broadcast check when P0 adds to the ε it sends
 * (the attack as played against the code before the fix, where ε was x − r).
 */
class SpdzInputRangeAttackTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final Field M127 = Fields.MERSENNE_127;
  private static final int K = 32;
  private static final int PARTIES = 3;

  /**
   * Every opening a party completed (it had every other party's share): what it learned. At a
   * corrupt owner ({@code delta} not null) its own inputs are those of an owner that adds {@code
   * delta} to bit 0 of its first value, whatever it declared: a consistent broadcast of non-bits.
   */
  private static final class RecordingSuite extends ForwardingSuite {
    final List<Integer> completedOpenings = Collections.synchronizedList(new ArrayList<>());
    private final long[] delta;

    RecordingSuite(Suite delegate, long[] delta) {
      super(delegate);
      this.delta = delta;
    }

    @Override
    public RoundProtocol input(int owner, long[] values, int length, int bits) {
      if (delta == null || owner != party()) {
        return delegate.input(owner, values, length, bits);
      }
      long[] column = SpdzRangeInput.bitColumn(field(), owner, values, length, bits);
      field().add(column, 0, delta, 0, column, 0, 1);
      return new SpdzRangeInput((SpdzSuite) delegate, owner, column, length, bits);
    }

    @Override
    public RoundProtocol open(Shares a, int receiver) {
      RoundProtocol inner = delegate.open(a, receiver);
      return new RoundProtocol() {
        @Override
        public boolean isDone() {
          return inner.isDone();
        }

        @Override
        public void send(int round, Outbox out) {
          inner.send(round, out);
        }

        @Override
        public boolean receive(int round, Inbox in) {
          boolean done = inner.receive(round, in);
          if (done) {
            completedOpenings.add(a.length);
          }
          return done;
        }

        @Override
        public long[] opened() {
          return inner.opened();
        }
      };
    }
  }

  /**
   * SPDZ where P0 adds {@code delta} to element 0 of every input broadcast it sends ({@code
   * ownBits} false: its own view keeps the true ε), or inputs its first bit plus {@code delta}
   * ({@code ownBits} true: a consistent corrupt owner).
   */
  private static SuiteFactory corruptP0(
      long dealerSeed, BigInteger delta, boolean ownBits, List<RecordingSuite> p0) {
    long[] d = M127.alloc(1);
    M127.encode(delta, d, 0);
    Tamper tamper =
        ownBits
            ? null
            : (message, peer, words, count) -> {
              if (message == Tamper.Message.INPUT && count > 0) {
                M127.add(words, 0, d, 0, words, 0, 1); // the same for every peer
              }
            };
    SuiteFactory spdz =
        SpdzSuite.factory(
            SpdzConfig.insecureDealer(M127, dealerSeed), party -> party == 0 ? tamper : null);
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
        // Every party's suite is decorated alike: the engines compare their suites' class names.
        RecordingSuite recording =
            new RecordingSuite(spdz.create(party, parties, prg), party == 0 && ownBits ? d : null);
        if (party == 0) {
          p0.add(recording);
        }
        return recording;
      }
    };
  }

  /** The issue's program: P0 inputs x, P1 z0 and z1, P2 y, all declared 32-bit. */
  private static Computation<long[]> issueProgram(long x, long y, long z0, long z1) {
    return b -> {
      SecretVector xs = b.input(0, b.myId() == 0 ? new long[] {x} : null, 1, K);
      SecretVector zs0 = b.input(1, b.myId() == 1 ? new long[] {z0} : null, 1, K);
      SecretVector zs1 = b.input(1, b.myId() == 1 ? new long[] {z1} : null, 1, K);
      SecretVector ys = b.input(2, b.myId() == 2 ? new long[] {y} : null, 1, K);
      SecretVector lt = Comparison.lessThan(b, zs0, xs, K);
      SecretVector m = Select.mux(b, lt, xs, ys);
      return b.open(Comparison.lessThan(b, m, zs1, K));
    };
  }

  private static void assertHonestPartiesAbort(PartyFailedException e, String prefix) {
    List<PartyFailedException> failures = new ArrayList<>();
    failures.add(e);
    for (Throwable other : e.getSuppressed()) {
      failures.add((PartyFailedException) other);
    }
    int honest = 0;
    for (PartyFailedException failure : failures) {
      if (failure.party().index() == 0) {
        continue;
      }
      honest++;
      Throwable cause = failure.getCause();
      assertInstanceOf(AbortException.class, cause, () -> "cause: " + cause);
      assertTrue(cause.getMessage().startsWith(prefix), cause.getMessage());
    }
    assertEquals(PARTIES - 1, honest, "every honest party fails: " + e.getMessage());
  }

  // x's offset bits u = x + 2^31: x = 5 has bit 0 of u set, x = 4 has it clear. Bit 0 of x is
  // element 0 of P0's input batch now, as x itself was before the fix: delta shifts x either way.
  @ParameterizedTest(name = "x = {0} + {1}, seed {2}")
  @CsvSource({
    "5, 1298074214633706907132624082305024, 11", // 2^110: far outside 32 bits
    "5, 1, 12", // bit 0 becomes 2
    "4, -1, 13", // bit 0 becomes -1
    "4, 4294967296, 14" // 2^32
  })
  void issueProgram_corruptOwnerInputsNonBits_honestPartiesAbortNamingOwnerBeforeAnyOpening(
      long x, String delta, long seed) {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    PartyFailedException e = attack(corruptP0(seed, new BigInteger(delta), true, p0), x, seed);
    assertHonestPartiesAbort(
        e,
        "P0's input (1 value declared 32-bit) is not a 32-bit value: its bits failed the range"
            + " check after a passed MAC check; P0 is misbehaving");
    assertNoOpeningReceived(p0);
  }

  // The attack of the issue as played against the code before the fix: P0 adds 2^110 to the ε it
  // sends (there: x − r, so x became 2^110 + 5; the comparisons' openings reached P0 and every MAC
  // check passed). Its own digest keeps the true ε, so the check before w is opened catches it.
  @Test
  void issueProgram_outOfRangeBroadcast_honestPartiesAbortBeforeAnyOpening() {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    BigInteger delta = BigInteger.ONE.shiftLeft(110);
    PartyFailedException e = attack(corruptP0(15, delta, false, p0), 5, 15);
    assertHonestPartiesAbort(e, "input broadcast check failed (check 0): P0 received other");
    assertNoOpeningReceived(p0);
  }

  private static PartyFailedException attack(SuiteFactory suite, long x, long seed) {
    LocalParties parties =
        new LocalParties(
            PARTIES, suite, EngineConfig.defaults().withInsecureSeed(seed + 100), TIMEOUT);
    return assertThrows(PartyFailedException.class, () -> parties.run(issueProgram(x, 77, -3, 40)));
  }

  private static void assertNoOpeningReceived(List<RecordingSuite> p0) {
    assertEquals(1, p0.size());
    assertEquals(
        List.of(),
        p0.get(0).completedOpenings,
        "the corrupt P0 received honest shares of openings that depend on its bad input");
  }

  @Test
  void issueProgram_honestInputs_matchOracle() {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    SuiteFactory suite = corruptP0(21, BigInteger.ZERO, true, p0); // an owner that adds nothing
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
        assertArrayEquals(new long[] {expected}, r.value(), () -> "case x = " + c[0]);
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

  @Test
  void input_nonBitAtTheWidestDeclaredBits_honestPartiesAbortNamingOwner() {
    List<RecordingSuite> p0 = Collections.synchronizedList(new ArrayList<>());
    SuiteFactory suite = corruptP0(42, BigInteger.TWO, true, p0);
    int k = M127.bitLength() - 1;
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                new LocalParties(
                        PARTIES, suite, EngineConfig.defaults().withInsecureSeed(43), TIMEOUT)
                    .run(b -> b.openBig(b.input(0, BigInteger.ONE, k))));
    assertHonestPartiesAbort(
        e,
        "P0's input (1 value declared 126-bit) is not a 126-bit value: its bits failed the range"
            + " check after a passed MAC check; P0 is misbehaving");
  }
}
