package dev.cohort.spdz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cohort.engine.Engine;
import dev.cohort.engine.EngineConfig;
import dev.cohort.field.Fields;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.suite.SuiteFactory;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * SPDZ suites draw triples and masks from a common store, so one party must never run two of them
 * side by side: an engine configured for groups of sessions refuses SPDZ before anything runs.
 */
class SpdzGroupsRefusedTest {

  @Test
  void engineWithGroups_spdz_refusedSayingWhy() {
    SuiteFactory spdz = SpdzSuite.factory(SpdzConfig.insecureDealer(Fields.MERSENNE_61, 3));
    assertFalse(spdz.runsInGroups());
    InMemoryNetwork network = new InMemoryNetwork(2, Duration.ofSeconds(5));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Engine(spdz, network.channel(0), EngineConfig.defaults().withGroups(2)));
    assertEquals(
        spdz.name()
            + " cannot run sessions in groups (its suites would share material that must not be"
            + " used twice): use 1 group, or threads inside the suite",
        e.getMessage());
  }
}
