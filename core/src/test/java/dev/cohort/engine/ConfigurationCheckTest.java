package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.Deferred;
import dev.cohort.field.Fields;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.random.Prg;
import dev.cohort.suite.RoundProtocol;
import dev.cohort.suite.Suite;
import dev.cohort.suite.SuiteFactory;
import dev.cohort.suite.plaintext.PlaintextSuite;
import dev.cohort.testing.ForwardingSuite;
import dev.cohort.testing.ForwardingSuiteFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Parties that run different configurations learn it in the set-up round, in plain words. */
class ConfigurationCheckTest {

  /** The plaintext suite with a one-round set-up, so the configuration check has a round. */
  private static SuiteFactory withSetup() {
    return new ForwardingSuiteFactory(PlaintextSuite.factory(Fields.MERSENNE_61, 1)) {
      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new ForwardingSuite(super.create(party, parties, prg)) {
          @Override
          public RoundProtocol setup() {
            return new RoundProtocol() {
              @Override
              public void send(int round, dev.cohort.suite.Outbox out) {}

              @Override
              public boolean receive(int round, dev.cohort.suite.Inbox in) {
                return true;
              }
            };
          }
        };
      }
    };
  }

  private static List<Throwable> runWithBatchSizes(int... batchSizes) throws Exception {
    EngineConfig[] configs = new EngineConfig[batchSizes.length];
    for (int p = 0; p < configs.length; p++) {
      configs[p] = EngineConfig.defaults().withInsecureSeed(3).withBatchSize(batchSizes[p]);
    }
    return runWith(withSetup(), configs);
  }

  @Test
  void setup_sameConfiguration_runs() throws Exception {
    for (Throwable t : runWithBatchSizes(100, 100, 100)) {
      assertEquals(null, t);
    }
  }

  @Test
  void setup_differentBatchSizes_everyPartyAbortsSayingWhatMustAgree() throws Exception {
    List<Throwable> failures = runWithBatchSizes(100, 100, 200);
    for (Throwable t : failures) {
      assertInstanceOf(AbortException.class, t);
      assertTrue(
          t.getMessage().endsWith("every party must be started with the same settings"),
          t.getMessage());
    }
    // Each side names both configurations: the peer's first, then its own.
    assertTrue(
        failures
            .get(0)
            .getMessage()
            .equals(
                "P2 has batch size 200, P0 has 100: every party must be started with the same"
                    + " settings"),
        failures.get(0).getMessage());
    assertTrue(
        failures
            .get(2)
            .getMessage()
            .matches("P[01] has batch size 100, P2 has 200: every party must .*"),
        failures.get(2).getMessage());
  }

  private static List<Throwable> runWith(SuiteFactory suite, EngineConfig... configs)
      throws Exception {
    int n = configs.length;
    InMemoryNetwork network = new InMemoryNetwork(n, Duration.ofSeconds(10));
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int p = 0; p < n; p++) {
        Channel channel = network.channel(p);
        EngineConfig config = configs[p];
        futures.add(
            pool.submit(
                () -> new Engine(suite, channel, config).run(b -> Deferred.of(7L)).value()));
      }
      List<Throwable> failures = new ArrayList<>();
      for (Future<Long> f : futures) {
        try {
          assertEquals(7L, f.get(20, TimeUnit.SECONDS));
          failures.add(null);
        } catch (java.util.concurrent.ExecutionException e) {
          failures.add(e.getCause());
        }
      }
      return failures;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void agreed_differentSettings_everyPartyNamesEachSettingWithBothValues() throws Exception {
    EngineConfig base = EngineConfig.defaults().withInsecureSeed(5);
    EngineConfig same = base.withAgreed("--sessions", "1000").withAgreed("--seed", "1");
    EngineConfig other = base.withAgreed("--sessions", "1200");
    // A suite without a set-up round: the agreed settings get a round of their own.
    List<Throwable> failures =
        runWith(PlaintextSuite.factory(Fields.MERSENNE_61, 1), same, same, other);

    assertEquals(
        "P2 has no --seed, P0 has 1; P2 has --sessions 1200, P0 has 1000: every party must be"
            + " started with the same settings",
        failures.get(0).getMessage());
    assertEquals(
        "P0 has --seed 1, P2 has none; P0 has --sessions 1000, P2 has 1200: every party must be"
            + " started with the same settings",
        failures.get(2).getMessage());
    assertInstanceOf(ConfigurationMismatchException.class, failures.get(0));
    assertInstanceOf(AbortException.class, failures.get(1)); // P1 agrees with P0: P2 differs
  }

  @Test
  void agreed_sameSettings_run() throws Exception {
    EngineConfig config = EngineConfig.defaults().withInsecureSeed(5).withAgreed("--sessions", "9");
    for (Throwable t : runWith(PlaintextSuite.factory(Fields.MERSENNE_61, 1), config, config)) {
      assertEquals(null, t);
    }
  }

  @Test
  void withAgreed_lineBreakOrEquals_refused() {
    EngineConfig c = EngineConfig.defaults();
    assertThrows(IllegalArgumentException.class, () -> c.withAgreed("a=b", "1"));
    assertThrows(IllegalArgumentException.class, () -> c.withAgreed("a", "1\n"));
  }
}
