package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.api.Computation;
import dev.cohort.api.Deferred;
import dev.cohort.api.Numeric;
import dev.cohort.api.Secret;
import dev.cohort.api.SecretVector;
import dev.cohort.api.Step;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.LocalParties;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.random.Prg;
import dev.cohort.suite.Inbox;
import dev.cohort.suite.Outbox;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Shares;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.suite.plaintext.PlaintextSuite;
import dev.cohort.testing.ForwardingSuite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The engine's round loop: how ready gates are grouped into batches and rounds, what a run records,
 * and the errors a misused builder gets. Rounds are counted on {@link SlowMultiply}, the plaintext
 * suite with a multiplication that costs empty rounds, so that batching shows in the round count.
 */
class EngineTest {

  private static final Field FIELD = Fields.MERSENNE_61;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final int BITS = 20;

  private static <T> List<Result<T>> run(SuiteFactory suite, int batchSize, Computation<T> c) {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(1).withBatchSize(batchSize);
    return new LocalParties(2, suite, config, TIMEOUT).run(c);
  }

  private static <T> List<Result<T>> run(Computation<T> c) {
    return run(PlaintextSuite.factory(FIELD, 1), EngineConfig.DEFAULT_BATCH_SIZE, c);
  }

  /** {@code count} scalar products (x + i) * y, opened as one vector. */
  private static Computation<long[]> scalarProducts(int count, long x, long y) {
    return b -> {
      Secret sx = b.input(0, x, BITS);
      Secret sy = b.input(1, y, BITS);
      List<Secret> products = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        products.add(b.mul(b.add(sx, i), sy));
      }
      return b.open(b.vector(products));
    };
  }

  private static void assertScalarProducts(int count, long x, long y, long[] opened) {
    long[] expected = new long[count];
    for (int i = 0; i < count; i++) {
      expected[i] = (x + i) * y;
    }
    assertArrayEquals(expected, opened);
  }

  // ---- batching ----

  @Test
  void multiply_thousandScalarsInOneScope_oneBatch() {
    for (Result<long[]> r : run(scalarProducts(1000, 17, -3))) {
      assertScalarProducts(1000, 17, -3, r.value());
      RunMetrics m = r.metrics();
      assertEquals(1000L, m.gates().get("multiply"));
      assertEquals(1000L, m.elements().get("multiply"));
      assertEquals(1L, m.batches().get("multiply"));
      assertEquals(1L, m.batches().get("open"));
    }
  }

  @Test
  void multiply_thousandScalarsBatchSize100_tenBatchesInTenRounds() {
    for (Result<long[]> r : run(new SlowMultiply(1), 100, scalarProducts(1000, 5, 7))) {
      assertScalarProducts(1000, 5, 7, r.value());
      RunMetrics m = r.metrics();
      assertEquals(10L, m.batches().get("multiply"));
      assertEquals(1000L, m.gates().get("multiply"));
      assertEquals(1 + 10, m.rounds(), "one input round, then ten rounds of 100 products");
    }
  }

  @Test
  void multiply_thousandScalarsDefaultBatchSize_oneRound() {
    int batch = EngineConfig.DEFAULT_BATCH_SIZE;
    for (Result<long[]> r : run(new SlowMultiply(1), batch, scalarProducts(1000, 5, 7))) {
      assertScalarProducts(1000, 5, 7, r.value());
      assertEquals(1L, r.metrics().batches().get("multiply"));
      assertEquals(1 + 1, r.metrics().rounds());
    }
  }

  @Test
  void multiply_vectorLargerThanBatchSize_runsAloneInOneRound() {
    long[] values = new long[250];
    for (int i = 0; i < values.length; i++) {
      values[i] = i - 100;
    }
    Computation<long[]> square =
        b -> {
          SecretVector v = b.input(0, values, values.length, BITS);
          return b.open(b.mul(v, v));
        };
    for (Result<long[]> r : run(new SlowMultiply(1), 100, square)) {
      for (int i = 0; i < values.length; i++) {
        assertEquals(values[i] * values[i], r.value()[i]);
      }
      assertEquals(1L, r.metrics().batches().get("multiply"));
      assertEquals(250L, r.metrics().elements().get("multiply"));
      assertEquals(1 + 1, r.metrics().rounds());
    }
  }

  @Test
  void multiply_gatesThatDoNotFitTheBudget_waitForTheNextBatch() {
    // Three vectors of 60 with a batch size of 100: a gate is never split, so one per round.
    long[] values = new long[60];
    for (int i = 0; i < values.length; i++) {
      values[i] = 3 * i;
    }
    Computation<long[]> squares =
        b -> {
          SecretVector v = b.input(0, values, values.length, BITS);
          SecretVector all = b.mul(v, v);
          for (int k = 1; k < 3; k++) {
            all = b.concat(all, b.mul(v, b.add(v, k)));
          }
          return b.open(all);
        };
    for (Result<long[]> r : run(new SlowMultiply(1), 100, squares)) {
      for (int k = 0; k < 3; k++) {
        for (int i = 0; i < values.length; i++) {
          assertEquals(values[i] * (values[i] + k), r.value()[k * values.length + i]);
        }
      }
      assertEquals(3L, r.metrics().batches().get("multiply"));
      assertEquals(1 + 3, r.metrics().rounds());
    }
  }

  @Test
  void multiply_gateLargerThanBudgetWhileOthersInFlight_waitsToRunAlone() {
    // Batch size 100, two-round multiplications. Round 1 starts the product of 60 constants;
    // the input of 250 does not fit beside it, so it runs alone once that product is done.
    long[] small = new long[60];
    long[] large = new long[250];
    for (int i = 0; i < large.length; i++) {
      large[i] = i - 125;
      if (i < small.length) {
        small[i] = 2 * i + 1;
      }
    }
    Computation<long[]> c =
        b -> {
          SecretVector k = b.known(small);
          Deferred<long[]> first = b.open(b.mul(k, k));
          SecretVector v = b.input(0, b.myId() == 0 ? large : null, large.length, BITS);
          Deferred<long[]> second = b.open(b.mul(v, v));
          return () -> {
            long[] all = new long[small.length + large.length];
            System.arraycopy(first.get(), 0, all, 0, small.length);
            System.arraycopy(second.get(), 0, all, small.length, large.length);
            return all;
          };
        };
    long[] expected = new long[small.length + large.length];
    for (int i = 0; i < small.length; i++) {
      expected[i] = small[i] * small[i];
    }
    for (int i = 0; i < large.length; i++) {
      expected[small.length + i] = large[i] * large[i];
    }
    for (Result<long[]> r : run(new SlowMultiply(2), 100, c)) {
      assertArrayEquals(expected, r.value());
      assertEquals(2 + 1 + 2, r.metrics().rounds(), "small product, input, large product");
    }
  }

  @Test
  void multiply_twoRoundProtocolsInFlight_fillBudgetWithoutSplittingGates() {
    // Batch size 100, two-round multiplications of 30 elements each, all ready at once:
    // three start together (90), the fourth waits for them.
    Computation<long[]> c =
        b -> {
          long[] values = new long[30];
          for (int i = 0; i < values.length; i++) {
            values[i] = i;
          }
          SecretVector k = b.known(values);
          List<SecretVector> products = new ArrayList<>();
          for (int g = 0; g < 4; g++) {
            products.add(b.mul(k, b.add(k, g)));
          }
          SecretVector all = products.get(0);
          for (int g = 1; g < 4; g++) {
            all = b.concat(all, products.get(g));
          }
          return b.open(all);
        };
    for (Result<long[]> r : run(new SlowMultiply(2), 100, c)) {
      for (int g = 0; g < 4; g++) {
        for (int i = 0; i < 30; i++) {
          assertEquals((long) i * (i + g), r.value()[g * 30 + i]);
        }
      }
      assertEquals(2L, r.metrics().batches().get("multiply"));
      assertEquals(2 + 2, r.metrics().rounds());
    }
  }

  @Test
  void run_readyGatesOfDifferentKinds_shareOneRound() {
    // The inputs and the product of two constants are all ready at the start: one round.
    Computation<Long> c =
        b -> {
          Secret x = b.input(0, 6, BITS);
          Secret y = b.input(1, -7, BITS);
          Secret m = b.mul(b.known(3), b.known(4));
          return b.open(b.mul(b.add(x, m), y));
        };
    for (Result<Long> r : run(new SlowMultiply(1), EngineConfig.DEFAULT_BATCH_SIZE, c)) {
      assertEquals((6L + 12) * -7, r.value());
      assertEquals(2, r.metrics().rounds(), "inputs with the first product, then the second");
      assertEquals(2L, r.metrics().batches().get("multiply"));
    }
  }

  // ---- what a run records ----

  @Test
  void run_onlyLocalGates_costsNoRounds() {
    // Constants and linear maps are local; the plaintext suite opens locally too.
    Computation<Long> c =
        b -> {
          Secret k = b.add(b.known(40), b.mul(b.known(1), 2));
          return b.open(b.sum(b.vector(List.of(k, b.negate(b.known(0))))));
        };
    for (Result<Long> r : run(c)) {
      assertEquals(42L, r.value());
      assertEquals(0, r.metrics().rounds());
      assertEquals(List.of("open"), new ArrayList<>(r.metrics().gates().keySet()));
      assertEquals(0, r.metrics().totalBytesSent());
      assertEquals(0, r.metrics().totalFramesSent());
    }
  }

  @Test
  void run_everyGateKind_countedByKindName() {
    Computation<long[]> c =
        b -> {
          Secret x = b.input(0, 2, BITS);
          SecretVector v = b.input(1, new long[] {1, 2, 3}, 3, BITS);
          Secret r = b.random();
          SecretVector bits = b.randomBits(4);
          Secret y = b.mul(x, b.sum(v));
          Deferred<Long> opened = b.open(b.add(y, b.sub(r, r)));
          Deferred<long[]> openedBits = b.open(bits);
          return () -> new long[] {opened.get(), openedBits.get().length};
        };
    for (Result<long[]> r : run(c)) {
      assertArrayEquals(new long[] {12, 4}, r.value());
      RunMetrics m = r.metrics();
      assertEquals(
          List.of("input", "multiply", "open", "random", "random-bit"),
          new ArrayList<>(m.gates().keySet()));
      assertEquals(2L, m.gates().get("input"));
      assertEquals(4L, m.elements().get("input"));
      assertEquals(2L, m.batches().get("input"), "one batch per owner");
      assertEquals(1L, m.gates().get("random"));
      assertEquals(4L, m.elements().get("random-bit"));
      assertEquals(2L, m.gates().get("open"));
      assertEquals(5L, m.elements().get("open"));
    }
  }

  @Test
  void run_setupProtocol_countedOnceAsSetupRounds() {
    InMemoryNetwork network = new InMemoryNetwork(1, TIMEOUT);
    try (Channel channel = network.channel(0)) {
      Engine engine = new Engine(new SlowMultiply(1), channel, EngineConfig.defaults());
      Computation<Long> c = b -> b.open(b.mul(b.known(6), b.known(7)));
      Result<Long> first = engine.run(c);
      Result<Long> second = engine.run(c);
      assertEquals(42L, first.value());
      assertEquals(42L, second.value());
      assertEquals(1, first.metrics().setupRounds());
      assertEquals(0, second.metrics().setupRounds());
      assertEquals(1, first.metrics().rounds());
      assertEquals(1, second.metrics().rounds());
    }
  }

  // ---- misuse ----

  @Test
  void run_afterFailedRun_engineRefusesReuse() {
    InMemoryNetwork network = new InMemoryNetwork(1, TIMEOUT);
    try (Channel channel = network.channel(0)) {
      Engine engine =
          new Engine(PlaintextSuite.factory(FIELD, 1), channel, EngineConfig.defaults());
      IllegalStateException first =
          assertThrows(
              IllegalStateException.class,
              () ->
                  engine.run(
                      b -> {
                        throw new IllegalStateException("broken computation");
                      }));
      assertEquals("broken computation", first.getMessage());
      IllegalStateException second =
          assertThrows(IllegalStateException.class, () -> engine.run(b -> Deferred.of(1)));
      assertEquals("this engine failed in an earlier run; create a new one", second.getMessage());
    }
  }

  @Test
  void run_computationReturnsNull_throwsIllegalState() {
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(b -> null));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals("the computation returned null instead of a Deferred", e.getCause().getMessage());
  }

  @Test
  void seq_stepReturnsDeferredComputedOutsideIt_throwsIllegalState() {
    Computation<Long> c =
        b -> {
          Secret x = b.input(0, 5, BITS);
          Deferred<Long> outer = b.open(b.mul(x, x)); // computed by the root scope, later
          return b.seq(b1 -> outer);
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(c));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals(
        "a step returned a value that its own gates do not compute: opened value is not"
            + " available yet: read it in a later step (seq) or after the run",
        e.getCause().getMessage());
  }

  @Test
  void open_readWhileBuilding_throwsIllegalState() {
    Computation<Long> c =
        b -> {
          Deferred<Long> opened = b.open(b.input(0, 5, BITS));
          return Deferred.of(opened.get());
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(c));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals(
        "opened value is not available yet: read it in a later step (seq) or after the run",
        e.getCause().getMessage());
  }

  @Test
  void seq_builderKeptPastItsStep_throwsIllegalState() {
    Computation<Long> c =
        b -> {
          AtomicReference<Numeric> kept = new AtomicReference<>(); // one per party
          Secret x = b.input(0, 5, BITS);
          return b.seq(
                  b1 -> {
                    kept.set(b1);
                    return b1.open(x);
                  })
              .seq((b2, v) -> kept.get().open(kept.get().mul(x, x)));
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(c));
    assertInstanceOf(IllegalStateException.class, e.getCause());
    assertEquals(
        "a gate or step was added to a scope that has finished: keep the builder of a step"
            + " inside that step",
        e.getCause().getMessage());
  }

  @Test
  void step_readBeforeItFinished_throwsIllegalState() {
    Computation<Long> c =
        b -> {
          Secret x = b.input(0, 5, BITS);
          Step<Long> step = b.seq(b1 -> b1.open(x));
          return Deferred.of(step.get());
        };
    PartyFailedException e = assertThrows(PartyFailedException.class, () -> run(c));
    assertEquals(
        "step has not finished yet: read its value in a later step (seq) or after the run",
        e.getCause().getMessage());
  }

  @Test
  void config_batchSizeBelowOne_throws() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> EngineConfig.defaults().withBatchSize(0));
    assertEquals("batch size (0) must be >= 1", e.getMessage());
    EngineConfig seeded = EngineConfig.defaults().withInsecureSeed(7).withBatchSize(5);
    assertEquals(7L, seeded.insecureSeed());
    assertEquals(5, seeded.batchSize());
    assertNull(EngineConfig.defaults().insecureSeed());
  }

  /**
   * The plaintext suite, except that a multiplication takes {@code rounds} rounds in which nothing
   * is sent, and the suite has a one-round set-up: enough to make batching visible in round counts.
   */
  // ---- material waits ----

  @Test
  void materialWait_reportsOnlyWhatFellIntoTheRun() {
    long earlier = 5_000_000_000L; // waits of earlier runs, not this one's
    long perBatch = 1_000_000L;
    SuiteFactory plain = PlaintextSuite.factory(FIELD, 1);
    SuiteFactory waiting =
        new SuiteFactory() {
          @Override
          public String name() {
            return "plaintext waiting for material";
          }

          @Override
          public Field field() {
            return FIELD;
          }

          @Override
          public void validate(int parties) {
            plain.validate(parties);
          }

          @Override
          public Suite create(int party, int parties, Prg prg) {
            return new ForwardingSuite(plain.create(party, parties, prg)) {
              private long waited = earlier;

              @Override
              public RoundProtocol multiply(Shares a, Shares b) {
                waited += perBatch;
                return super.multiply(a, b);
              }

              @Override
              public long materialWaitNanos() {
                return waited;
              }
            };
          }
        };
    for (Result<long[]> r : run(waiting, 100, scalarProducts(1000, 3, 4))) {
      assertScalarProducts(1000, 3, 4, r.value());
      RunMetrics m = r.metrics();
      assertEquals(m.batches().get("multiply") * perBatch, m.materialWaitNanos());
      assertEquals(true, m.report().contains("waited 10.000 ms for material"), m.report());
    }
    for (Result<long[]> r : run(scalarProducts(10, 3, 4))) {
      assertEquals(0, r.metrics().materialWaitNanos(), "a suite with material at hand never waits");
    }
  }

  private static final class SlowMultiply implements SuiteFactory {
    private final SuiteFactory plain = PlaintextSuite.factory(FIELD, 1);
    private final int rounds;

    SlowMultiply(int rounds) {
      this.rounds = rounds;
    }

    @Override
    public String name() {
      return "slow-multiply(" + rounds + ")";
    }

    @Override
    public Field field() {
      return FIELD;
    }

    @Override
    public void validate(int parties) {
      plain.validate(parties);
    }

    @Override
    public Suite create(int party, int parties, Prg prg) {
      Suite inner = plain.create(party, parties, prg);
      return new ForwardingSuite(inner) {
        @Override
        public RoundProtocol setup() {
          return silentRounds(1, null);
        }

        @Override
        public RoundProtocol multiply(Shares a, Shares b) {
          return silentRounds(rounds, inner.multiply(a, b).shares());
        }
      };
    }

    private static RoundProtocol silentRounds(int rounds, Shares result) {
      return new RoundProtocol() {
        @Override
        public void send(int round, Outbox out) {}

        @Override
        public boolean receive(int round, Inbox in) {
          return round == rounds - 1;
        }

        @Override
        public Shares shares() {
          return result;
        }
      };
    }
  }
}
