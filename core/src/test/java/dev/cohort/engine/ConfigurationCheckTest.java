package dev.cohort.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
    SuiteFactory plain = PlaintextSuite.factory(Fields.MERSENNE_61, 1);
    return new SuiteFactory() {
      @Override
      public String name() {
        return plain.name();
      }

      @Override
      public dev.cohort.field.Field field() {
        return plain.field();
      }

      @Override
      public void validate(int parties) {
        plain.validate(parties);
      }

      @Override
      public Suite create(int party, int parties, Prg prg) {
        return new ForwardingSuite(plain.create(party, parties, prg)) {
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
    int n = batchSizes.length;
    InMemoryNetwork network = new InMemoryNetwork(n, Duration.ofSeconds(10));
    ExecutorService pool = Executors.newFixedThreadPool(n);
    try {
      List<Future<Long>> futures = new ArrayList<>();
      for (int p = 0; p < n; p++) {
        Channel channel = network.channel(p);
        EngineConfig config =
            EngineConfig.defaults().withInsecureSeed(3).withBatchSize(batchSizes[p]);
        futures.add(
            pool.submit(
                () -> new Engine(withSetup(), channel, config).run(b -> Deferred.of(7L)).value()));
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
          t.getMessage()
              .endsWith(
                  "every party must use the same suite, field, number of parties and batch size"),
          t.getMessage());
    }
    assertTrue(
        failures.get(0).getMessage().startsWith("P2 runs another configuration than P0 ("),
        failures.get(0).getMessage());
  }
}
