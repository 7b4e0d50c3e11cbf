package dev.cohort.spdz;

import static dev.cohort.spdz.CorruptParty.assertEveryPartyAborts;
import static dev.cohort.spdz.CorruptParty.assertHonestPartiesAbort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.engine.Result;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.testing.RandomCircuit;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SPDZ beyond the suite contract: cheating parties are caught before any output leaves the engine,
 * MAC checks cost a constant number of rounds, checks run before the end once enough values are
 * unchecked, and configuration mistakes get clear messages.
 */
class SpdzProtocolTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int BITS = 20;
  private static final Field M61 = Fields.MERSENNE_61;
  private static final Field M127 = Fields.MERSENNE_127;

  /** A field wider than 64 bits without fused kernels: the generic MAC check, 64-bit r_j. */
  private static final Field WIDE =
      Fields.prime(BigInteger.ONE.shiftLeft(89).subtract(BigInteger.ONE));

  private static <T> List<Result<T>> run(SuiteFactory suite, int n, long seed, Computation<T> c) {
    return new LocalParties(n, suite, EngineConfig.defaults().withInsecureSeed(seed), TIMEOUT)
        .run(c);
  }

  /** Party {@code cheater} adds one to the first element it sends in {@code target} messages. */
  private static SuiteFactory cheating(
      SpdzConfig config, int cheater, Tamper.Message target, int onlyPeer) {
    return CorruptParty.factory(
        config, cheater, CorruptParty.add(config.field(), 1, target, onlyPeer));
  }

  /**
   * {@code spdz} whose inputs of a declared width are input as field elements ({@link SpdzInput}).
   */
  private static SuiteFactory elementInputs(SuiteFactory spdz) {
    return CorruptParty.decorated(
        spdz,
        (party, suite) ->
            new dev.cohort.testing.ForwardingSuite(suite) {
              @Override
              public dev.cohort.suite.RoundProtocol input(
                  int owner, long[] values, int length, int bits) {
                return delegate.input(owner, values, length);
              }
            });
  }

  private static Computation<Long> product(int n) {
    return b -> {
      Secret x = b.input(0, 1234, BITS);
      Secret y = b.input(n - 1, -77, BITS);
      return b.open(b.add(b.mul(x, y), 5));
    };
  }

  // ---- cheating ----

  @ParameterizedTest(name = "{0} parties, cheater P{1}, seed {2}")
  @CsvSource({"2,0,1", "2,1,2", "3,1,3", "3,2,4", "5,3,5"})
  void multiply_tamperedOpeningShare_everyPartyAbortsBeforeOutput(int n, int cheater, long seed) {
    for (Field f : List.of(M61, M127, WIDE)) {
      SuiteFactory suite =
          cheating(SpdzConfig.insecureDealer(f, seed), cheater, Tamper.Message.MULTIPLY, -1);
      PartyFailedException e =
          assertThrows(PartyFailedException.class, () -> run(suite, n, seed, product(n)));
      // d and e: the check before the output's opening fails, so the output is never opened
      assertEveryPartyAborts(e, n, "MAC check failed (check 0, 2 opened values)");
    }
  }

  @ParameterizedTest(name = "{0} parties, cheater P{1}, seed {2}")
  @CsvSource({"2,0,1", "2,1,2", "3,0,3", "3,2,4", "5,4,5"})
  void open_tamperedShare_everyPartyAbortsBeforeOutput(int n, int cheater, long seed) {
    for (Field f : List.of(M61, M127)) {
      SuiteFactory suite =
          cheating(SpdzConfig.insecureDealer(f, seed), cheater, Tamper.Message.OPEN, -1);
      PartyFailedException e =
          assertThrows(PartyFailedException.class, () -> run(suite, n, seed, product(n)));
      assertEveryPartyAborts(e, n, "MAC check failed");
    }
  }

  @ParameterizedTest(name = "{0} parties, cheater P{1}, seed {2}")
  @CsvSource({"2,0,1", "3,1,2", "5,2,3"})
  void openTo_tamperedShare_everyPartyAbortsBeforeOutput(int n, int cheater, long seed) {
    SuiteFactory suite =
        cheating(SpdzConfig.insecureDealer(M127, seed), cheater, Tamper.Message.OPEN, -1);
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () -> run(suite, n, seed, b -> b.openTo(n - 1, b.input(0, 99, BITS))));
    assertEveryPartyAborts(e, n, "MAC check failed");
  }

  @ParameterizedTest(name = "{0} parties, owner P{1} lies to P{2}, seed {3}")
  @CsvSource({"3,0,1,1", "3,2,0,2", "5,1,4,3", "5,4,0,4"})
  void input_differentBroadcastsToDifferentParties_everyPartyAborts(
      int n, int owner, int victim, long seed) {
    for (Field f : List.of(M61, M127)) {
      SuiteFactory suite =
          cheating(SpdzConfig.insecureDealer(f, seed), owner, Tamper.Message.INPUT, victim);
      Computation<Long> c =
          b -> {
            Secret x = b.input(owner, 10, BITS);
            Secret y = b.input((owner + 1) % n, 20, BITS);
            return b.open(b.add(x, y));
          };
      PartyFailedException e =
          assertThrows(PartyFailedException.class, () -> run(suite, n, seed, c));
      assertEveryPartyAborts(e, n, "input broadcast check failed (check 0): P");
    }
  }

  @ParameterizedTest(name = "{0} parties, cheater P{1}")
  @CsvSource({"2,1", "3,0", "5,2"})
  void macCheck_seedOpenedDifferently_everyHonestPartyAborts(int n, int cheater) {
    SuiteFactory suite =
        cheating(SpdzConfig.insecureDealer(M61, 31), cheater, Tamper.Message.CHECK_SEED, -1);
    PartyFailedException e =
        assertThrows(PartyFailedException.class, () -> run(suite, n, 31, product(n)));
    assertHonestPartiesAbort(
        e,
        n,
        cheater,
        "MAC check failed (check 0, 2 opened values): P"
            + cheater
            + " opened a seed that does not match its commitment; P"
            + cheater
            + " is cheating or its messages were altered");
  }

  @ParameterizedTest(name = "{0} parties, cheater P{1}")
  @CsvSource({"2,0", "3,2", "5,1"})
  void macCheck_sigmaOpenedDifferently_everyHonestPartyAborts(int n, int cheater) {
    SuiteFactory suite =
        cheating(SpdzConfig.insecureDealer(M127, 32), cheater, Tamper.Message.CHECK_SIGMA, -1);
    PartyFailedException e =
        assertThrows(PartyFailedException.class, () -> run(suite, n, 32, product(n)));
    assertHonestPartiesAbort(
        e,
        n,
        cheater,
        "MAC check failed (check 0, 2 opened values): P"
            + cheater
            + " opened a MAC check value that does not match its commitment; P"
            + cheater
            + " is cheating or its messages were altered");
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Tamper.Message.class,
      names = {"INPUT", "MULTIPLY", "OPEN", "CHECK_SIGMA"})
  void anyMessage_valueOutsideField_honestPartiesAbortNamingSender(Tamper.Message target) {
    int n = 3;
    int cheater = 0;
    for (Field f : List.of(M61, M127)) {
      Tamper tamper =
          (message, peer, words, count) -> {
            if (message == target && count > 0) {
              java.util.Arrays.fill(words, 0, f.words(), -1L); // >= p in both fields
            }
          };
      SuiteFactory spdz = CorruptParty.factory(SpdzConfig.insecureDealer(f, 41), cheater, tamper);
      // Inputs of a declared width send packed bits, which have no value outside the field (any
      // word decodes to bits): the element broadcast of an input without a width does.
      SuiteFactory suite = target == Tamper.Message.INPUT ? elementInputs(spdz) : spdz;
      PartyFailedException e =
          assertThrows(PartyFailedException.class, () -> run(suite, n, 41, product(n)));
      assertHonestPartiesAbort(
          e, n, cheater, "P0 sent a value outside the field " + f.name() + " (element 0 of ");
    }
  }

  @ParameterizedTest(name = "{0} parties")
  @ValueSource(ints = {2, 3, 4, 5})
  void multiply_vectorPastTwoKernelBlocks_matchesPlaintext(int n) {
    int length = 1100; // blocks of 512 in the opening and combination over 2^127 − 1
    long[] xs = new long[length];
    long[] ys = new long[length];
    for (int i = 0; i < length; i++) {
      xs[i] = (i * 7919L) % (1 << BITS - 1) - (i % 3) * 1000;
      ys[i] = (1 << BITS - 1) - 1 - (i * 104729L) % (1 << BITS);
    }
    Computation<long[]> c =
        b -> {
          SecretVector x = b.input(0, b.myId() == 0 ? xs : null, length, BITS);
          SecretVector y = b.input(n - 1, b.myId() == n - 1 ? ys : null, length, BITS);
          return b.open(b.mul(x, y));
        };
    for (Result<long[]> r : run(SpdzSuite.insecureFactory(M127, 44), n, 44, c)) {
      long[] want = new long[length];
      for (int i = 0; i < length; i++) {
        want[i] = xs[i] * ys[i];
      }
      assertArrayEquals(want, r.value());
    }
  }

  /**
   * A multiplication whose d and e start one word into every frame (another protocol of the round
   * wrote a word first): over 2^127 − 1 they are off the element grid in the frames, where the
   * Mersenne kernels write this party's shares and read them back to sum them.
   */
  @ParameterizedTest(name = "{0} parties")
  @ValueSource(ints = {2, 3, 4})
  void multiply_afterAnOddWordInTheSameFrames_matchesPlaintext(int n) {
    int length = 600; // past one kernel block
    long[] xs = new long[length];
    long[] ys = new long[length];
    for (int i = 0; i < length; i++) {
      xs[i] = (i * 7919L) % (1 << BITS - 1) - (i % 5) * 977;
      ys[i] = (1 << BITS - 1) - 1 - (i * 104729L) % (1 << BITS);
    }
    Computation<long[]> c =
        b -> {
          SecretVector x = b.input(0, b.myId() == 0 ? xs : null, length, BITS);
          SecretVector y = b.input(n - 1, b.myId() == n - 1 ? ys : null, length, BITS);
          return b.open(b.mul(x, y));
        };
    for (Field f : List.of(M61, M127)) {
      SuiteFactory suite = CorruptParty.decorated(SpdzSuite.insecureFactory(f, 45), OddWord::new);
      for (Result<long[]> r : run(suite, n, 45, c)) {
        long[] want = new long[length];
        for (int i = 0; i < length; i++) {
          want[i] = xs[i] * ys[i];
        }
        assertArrayEquals(want, r.value(), f.name());
      }
    }
  }

  /** A suite whose multiplications send every peer one word (its party) before d and e. */
  private static final class OddWord extends dev.cohort.testing.ForwardingSuite {
    private final int party;

    OddWord(int party, dev.cohort.suite.Suite suite) {
      super(suite);
      this.party = party;
    }

    @Override
    public dev.cohort.suite.RoundProtocol multiply(
        dev.cohort.suite.Shares a, dev.cohort.suite.Shares b) {
      dev.cohort.suite.RoundProtocol multiply = delegate.multiply(a, b);
      int parties = delegate.parties();
      return new dev.cohort.suite.RoundProtocol() {
        @Override
        public boolean isDone() {
          return multiply.isDone();
        }

        @Override
        public void send(int round, dev.cohort.suite.Outbox out) {
          for (int k = 0; k < parties; k++) {
            if (k != party) {
              out.write(k, party);
            }
          }
          multiply.send(round, out);
        }

        @Override
        public boolean receive(int round, dev.cohort.suite.Inbox in) {
          for (int k = 0; k < parties; k++) {
            if (k != party) {
              assertEquals(k, in.read(k));
            }
          }
          return multiply.receive(round, in);
        }

        @Override
        public dev.cohort.suite.Shares shares() {
          return multiply.shares();
        }
      };
    }
  }

  @ParameterizedTest(name = "{0} parties, cheater P{1}, element {2}")
  @CsvSource({"3,2,9", "3,1,0", "3,0,13", "4,3,5", "5,1,11", "5,4,2"})
  void multiply_valueOutsideFieldFromAnyPeer_honestPartiesAbortNamingSenderAndElement(
      int n, int cheater, int element) {
    int length = 7; // the opening is 14 elements: d, then e
    for (Field f : List.of(M61, M127)) {
      Tamper tamper =
          (message, peer, words, count) -> {
            if (message == Tamper.Message.MULTIPLY) {
              java.util.Arrays.fill(words, element * f.words(), (element + 1) * f.words(), -1L);
            }
          };
      SuiteFactory suite = CorruptParty.factory(SpdzConfig.insecureDealer(f, 43), cheater, tamper);
      long[] values = {3, -1, 4, 1, -5, 9, 2};
      Computation<long[]> c =
          b -> {
            SecretVector x = b.input(0, b.myId() == 0 ? values : null, length, BITS);
            SecretVector y = b.input(n - 1, b.myId() == n - 1 ? values : null, length, BITS);
            return b.open(b.mul(x, y));
          };
      PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, n, 43, c));
      assertHonestPartiesAbort(
          e,
          n,
          cheater,
          "P"
              + cheater
              + " sent a value outside the field "
              + f.name()
              + " (element "
              + element
              + " of 14)");
    }
  }

  @Test
  void open_tamperedBeforeManyLaterOpenings_midRunCheckAborts() {
    int n = 3;
    int length = 100;
    long[] values = new long[length];
    for (int i = 0; i < length; i++) {
      values[i] = i * 31 - 1000;
    }
    SpdzConfig config = SpdzConfig.insecureDealer(M61, 7).withCheckEvery(50);
    SuiteFactory suite = cheating(config, 1, Tamper.Message.OPEN, -1);
    Computation<Long> c =
        b -> {
          SecretVector v = b.input(0, b.myId() == 0 ? values : null, length, BITS);
          Secret x = b.input(2, 5, BITS);
          return b.seq(b1 -> b1.open(v))
              .seq(
                  (b2, opened) ->
                      b2.loop(
                          0L,
                          i -> i < 10,
                          (b3, i) -> {
                            Deferred<Long> next = b3.open(b3.add(x, i));
                            return () -> i + 1 + 0 * next.get();
                          }));
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(suite, n, 7, c));
    // The first MAC check covers exactly the tampered opening: it ran before any later opening.
    assertEveryPartyAborts(e, n, "MAC check failed (check 0, 100 opened values)");
  }

  @Test
  void abortMessage_namesTheCheck_withoutSecrets() {
    int n = 2;
    long x = 424242;
    SuiteFactory suite = cheating(SpdzConfig.insecureDealer(M61, 9), 0, Tamper.Message.OPEN, -1);
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class, () -> run(suite, n, 9, b -> b.open(b.input(0, x, BITS))));
    String message = e.getCause().getMessage();
    assertEquals(
        "MAC check failed (check 0, 1 opened values): the opened values do not match their MACs;"
            + " a party sent inconsistent shares or the preprocessing is corrupt",
        message);
  }

  @ParameterizedTest(name = "{0} parties")
  @ValueSource(ints = {2, 3})
  void preprocessing_corruptMacShareOfTriple_everyPartyAborts(int n) {
    PreprocessingSource honest = InsecureDealer.source(21);
    PreprocessingSource corrupt =
        (field, party, parties) -> {
          SpdzPreprocessing inner = honest.open(field, party, parties);
          if (party != 1) {
            return inner;
          }
          return new ForwardingPreprocessing(inner) {
            @Override
            public Triples triples(int count) {
              Triples t = inner.triples(count);
              long[] one = field.alloc(1);
              field.encode(1, one, 0);
              field.add(t.c().mac, 0, one, 0, t.c().mac, 0, 1);
              return t;
            }
          };
        };
    SpdzConfig config = SpdzConfig.of(M127, corrupt, "corrupt dealer");
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class, () -> run(SpdzSuite.factory(config), n, 21, product(n)));
    // The bad MAC is on the product's share, not on d or e: the check before the output's opening
    // passes; the end check over the opened output fails.
    assertEveryPartyAborts(e, n, "MAC check failed (check 1, 1 opened values)");
  }

  // ---- honest runs ----

  @ParameterizedTest(name = "checkEvery {0}")
  @ValueSource(ints = {1, 7, 150})
  void randomCircuit_frequentMidRunChecks_matchesPlaintext(int checkEvery) {
    for (int n : new int[] {2, 3}) {
      for (long seed = 1; seed <= 2; seed++) {
        RandomCircuit circuit =
            RandomCircuit.generate(seed, n, new RandomCircuit.Shape(20, 6, 30, 4));
        SpdzConfig config = SpdzConfig.insecureDealer(M127, seed).withCheckEvery(checkEvery);
        BigInteger[] expected = circuit.expected(M127.modulus());
        for (Result<BigInteger[]> r :
            run(SpdzSuite.factory(config), n, seed, circuit.computation())) {
          BigInteger[] actual = r.value().clone();
          for (int i = 0; i < actual.length; i++) {
            actual[i] = actual[i].mod(M127.modulus());
          }
          assertArrayEquals(expected, actual, "n=" + n + " seed=" + seed);
        }
      }
    }
  }

  @Test
  void randomCircuit_wideGenericField_matchesPlaintext() {
    RandomCircuit circuit = RandomCircuit.generate(5, 3, new RandomCircuit.Shape(20, 6, 30, 4));
    SpdzConfig config = SpdzConfig.insecureDealer(WIDE, 5).withCheckEvery(7);
    BigInteger[] expected = circuit.expected(WIDE.modulus());
    for (Result<BigInteger[]> r : run(SpdzSuite.factory(config), 3, 5, circuit.computation())) {
      BigInteger[] actual = r.value().clone();
      for (int i = 0; i < actual.length; i++) {
        actual[i] = actual[i].mod(WIDE.modulus());
      }
      assertArrayEquals(expected, actual);
    }
  }

  @Test
  void engine_threeRunsOnTheSameEngines_eachCheckedWithAFreshSeed() throws Exception {
    int n = 3;
    InMemoryNetwork network = new InMemoryNetwork(n, TIMEOUT);
    SuiteFactory suite = SpdzSuite.insecureFactory(M61, 3);
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<List<Result<Long>>>> futures = new ArrayList<>();
      for (int p = 0; p < n; p++) {
        Channel channel = network.channel(p);
        futures.add(
            pool.submit(
                () -> {
                  try (channel) {
                    Engine engine =
                        new Engine(suite, channel, EngineConfig.defaults().withInsecureSeed(3));
                    List<Result<Long>> results = new ArrayList<>();
                    for (int run = 0; run < 3; run++) {
                      results.add(engine.run(product(n)));
                    }
                    return results;
                  }
                }));
      }
      for (Future<List<Result<Long>>> f : futures) {
        List<Result<Long>> results = f.get(60, TimeUnit.SECONDS);
        for (int run = 0; run < 3; run++) {
          Result<Long> r = results.get(run);
          assertEquals(1234L * -77 + 5, r.value());
          // input, multiply, MAC check before the output's opening, opening, end check
          assertEquals(1 + 1 + 3 + 1 + 3, r.metrics().rounds(), "run " + run);
          assertEquals(run == 0 ? 1 : 0, r.metrics().setupRounds(), "run " + run);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- rounds ----

  @ParameterizedTest(name = "{0} values")
  @ValueSource(ints = {10, 10_000})
  void macCheck_anyNumberOfValues_addsThreeRounds(int length) {
    int n = 3;
    long[] xs = new long[length];
    for (int i = 0; i < length; i++) {
      xs[i] = i - length / 2;
    }
    Computation<long[]> openOnly = b -> b.open(b.input(0, b.myId() == 0 ? xs : null, length, BITS));
    for (Result<long[]> r : run(SpdzSuite.insecureFactory(M127, 11), n, 11, openOnly)) {
      assertArrayEquals(xs, r.value());
      assertEquals(1 + 1 + 1 + 3, r.metrics().rounds(), "input, broadcast check, open, MAC check");
      assertEquals(1, r.metrics().setupRounds(), "seed commitments");
    }
    Computation<long[]> squares =
        b -> {
          SecretVector v = b.input(0, b.myId() == 0 ? xs : null, length, BITS);
          return b.open(b.mul(v, v));
        };
    for (Result<long[]> r : run(SpdzSuite.insecureFactory(M127, 12), n, 12, squares)) {
      assertEquals((long) xs[length - 1] * xs[length - 1], r.value()[length - 1]);
      assertEquals(
          1 + 1 + 3 + 1 + 3, r.metrics().rounds(), "input, multiply, check, open, end check");
    }
  }

  @Test
  void inputsOnly_nothingOpened_noCheckRounds() {
    for (Result<String> r :
        run(
            SpdzSuite.insecureFactory(M61, 13),
            2,
            13,
            b -> {
              b.input(0, 1, BITS);
              b.input(1, 2, BITS);
              return Deferred.of("done");
            })) {
      assertEquals(1, r.metrics().rounds());
    }
  }

  // ---- configuration ----

  @Test
  void validate_oneParty_failsNamingTheMinimum() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SpdzSuite.insecureFactory(M127, 1).validate(1));
    assertEquals("SPDZ needs at least 2 parties, got 1", e.getMessage());
  }

  @Test
  void config_smallField_failsNamingTheSizeNeeded() {
    Field small = Fields.prime(BigInteger.valueOf(2_147_483_647L));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SpdzConfig.insecureDealer(small, 1));
    assertTrue(
        e.getMessage().startsWith("SPDZ needs a field of at least 61 bits for MAC soundness"),
        e.getMessage());
    assertTrue(e.getMessage().endsWith("(31 bits)"), e.getMessage());
  }

  @Test
  void config_checkEveryZero_fails() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> SpdzConfig.insecureDealer(M61, 1).withCheckEvery(0));
    assertEquals("checkEvery (0) must be >= 1", e.getMessage());
  }

  @Test
  void factory_name_saysFieldAndDealer() {
    assertEquals("spdz(m127, insecure dealer)", SpdzSuite.insecureFactory(M127, 1).name());
  }

  @Test
  void preprocessing_runsOut_failsNamingWhatRanOut() {
    SpdzConfig config = SpdzConfig.of(M61, InsecureDealer.source(1, 5), "capped");
    PartyFailedException e =
        assertThrows(
            PartyFailedException.class,
            () ->
                run(
                    SpdzSuite.factory(config),
                    2,
                    1,
                    b -> {
                      SecretVector v = b.input(0, b.myId() == 0 ? new long[10] : null, 10, BITS);
                      return b.open(v);
                    }));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals(
        // 10 values of BITS bits each: one input bit per bit
        "SPDZ preprocessing ran out of input bits of P0: " + 10 * BITS + " needed, 5 of 5 left",
        e.getCause().getMessage());
  }
}
