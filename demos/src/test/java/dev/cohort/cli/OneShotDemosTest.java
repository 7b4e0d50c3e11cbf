package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The auction and filtered-average demos, in-process; each checks itself against plaintext. */
class OneShotDemosTest {

  @Test
  void auction_fourBidders_matchesPlaintext() {
    Cli.Run run =
        cohort(
            "demo",
            "auction",
            "--bidders",
            "4",
            "--bits",
            "16",
            "--seed",
            "3",
            "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("(match)"), run.out());
    assertTrue(run.out().contains("highest bid:"), run.out());
  }

  @Test
  void auction_spdz_matchesPlaintext() {
    Cli.Run run =
        cohort(
            "demo",
            "auction",
            "--suite",
            "spdz",
            "--bidders",
            "3",
            "--bits",
            "12",
            "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("(match)"), run.out());
  }

  @Test
  void filteredAverage_threeParties_matchesPlaintext() {
    Cli.Run run =
        cohort("demo", "filtered-average", "--records", "6", "--seed", "2", "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("(match)"), run.out());
  }

  @Test
  void auction_oneBitBids_failsWithOneLine() {
    Cli.Run run = cohort("demo", "auction", "--bits", "1");

    assertEquals(2, run.exitCode(), run.all());
    assertEquals("cohort: bits (1) must be in [2, 40]", run.err().strip());
  }
}
