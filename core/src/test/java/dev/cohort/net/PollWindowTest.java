package dev.cohort.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The poll window closes by halves on long waits and opens fully on a short one. */
class PollWindowTest {

  @Test
  void longWaits_halveTheWindowDownToNone_aShortWaitOpensItFully() {
    PollWindow window = new PollWindow(100_000);
    assertEquals(100_000, window.nanos());
    long[] expected = {50_000, 25_000, 12_500, 6_250, 3_125, 1_562, 0, 0};
    for (long nanos : expected) {
      window.waited(100_001);
      assertEquals(nanos, window.nanos());
    }
    window.waited(100_000);
    assertEquals(100_000, window.nanos());
  }

  @Test
  void zeroMaximum_neverPolls() {
    PollWindow window = new PollWindow(0);
    assertEquals(0, window.nanos());
    window.waited(0);
    assertEquals(0, window.nanos());
  }
}
