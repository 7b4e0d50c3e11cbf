package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** When the warm-up of a sweep stops: once the time per session has stopped falling. */
class WarmUpTest {

  @Test
  void settled_fewerThanTwoWindows_isFalse() {
    assertFalse(WarmUp.settled(List.of()));
    assertFalse(WarmUp.settled(List.of(1.0, 1.0, 1.0, 1.0, 1.0)));
  }

  @Test
  void settled_stillFalling_isFalse() {
    // medians 3.0 then 1.5: the JIT is still at work
    assertFalse(WarmUp.settled(List.of(12.0, 3.0, 2.5, 2.0, 1.5, 1.2)));
  }

  @Test
  void settled_noisyButFlat_isTrue() {
    // runs differ by a third, but the median of the last three (0.40) is not below the one of the
    // three before (0.40): noise, not a trend
    assertTrue(WarmUp.settled(List.of(0.40, 0.55, 0.30, 0.52, 0.40, 0.28)));
  }

  @Test
  void settled_laterMedianJustInsideOrOutsideTenPercent_decidesAtTheBoundary() {
    assertTrue(WarmUp.settled(List.of(1.0, 1.0, 1.0, 0.91, 0.91, 0.91)));
    assertFalse(WarmUp.settled(List.of(1.0, 1.0, 1.0, 0.89, 0.89, 0.89)));
  }

  @Test
  void settled_looksAtTheLastSixRunsOnly() {
    // cold runs long ago do not keep it from settling once the recent ones are flat
    assertTrue(WarmUp.settled(List.of(50.0, 20.0, 9.0, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5)));
    // and a fall among the recent ones keeps it from settling, however flat it was before
    assertFalse(WarmUp.settled(List.of(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.3, 0.3, 0.3)));
  }

  /**
   * {@code bench clients}' times fall 2 to 3 % a run for a dozen runs: its tolerance of 3 % waits
   * for that trend to end where the sweeps' 10 % would not.
   */
  @Test
  void settled_slowTrendWithATighterTolerance_isFalseUntilItEnds() {
    List<Double> slow = List.of(1.40, 1.36, 1.33, 1.29, 1.26, 1.22);
    assertTrue(WarmUp.settled(slow), "10 %: settled");
    assertFalse(WarmUp.settled(slow, BenchClients.WARM_UP_TOLERANCE_PERCENT), "3 %: falling");
    assertTrue(
        WarmUp.settled(
            List.of(1.22, 1.18, 1.20, 1.19, 1.21, 1.17), BenchClients.WARM_UP_TOLERANCE_PERCENT));
  }
}
