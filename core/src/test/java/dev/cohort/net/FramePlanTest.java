package dev.cohort.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The plan of which links carry a frame: both ends of a link decide alike from choices that agree,
 * an idle link carries a frame at least every third round, and a frame the plan added must be
 * empty.
 */
class FramePlanTest {

  /**
   * Two parties' plans over random rounds (seeded), their callers' choices agreeing: P0 sends P1 a
   * frame exactly when P1 takes one from P0, and neither direction goes more than two rounds
   * without one.
   */
  @Test
  void next_agreeingChoices_bothEndsPlanTheSameFramesAndNoLinkIdlesThreeRounds() {
    FramePlan p0 = new FramePlan(0, 2);
    FramePlan p1 = new FramePlan(1, 2);
    SplittableRandom random = new SplittableRandom(77);
    int[] sinceFrame = new int[2]; // rounds since the last frame, P0 -> P1 and P1 -> P0
    int added = 0;
    for (int r = 0; r < 2000; r++) {
      boolean zeroToOne = random.nextInt(4) == 0;
      boolean oneToZero = random.nextInt(3) == 0;
      p0.next(lengths(zeroToOne, 1), new boolean[] {false, oneToZero});
      p1.next(lengths(oneToZero, 0), new boolean[] {zeroToOne, false});
      assertEquals(p0.sends(1), p1.takes(0), "round " + r + ", P0 -> P1");
      assertEquals(p1.sends(0), p0.takes(1), "round " + r + ", P1 -> P0");
      assertTrue(p0.sends(1) || !zeroToOne, "a frame with words always goes");
      added += p0.sends(1) && !zeroToOne ? 1 : 0;
      sinceFrame[0] = p0.sends(1) ? 0 : sinceFrame[0] + 1;
      sinceFrame[1] = p1.sends(0) ? 0 : sinceFrame[1] + 1;
      assertTrue(sinceFrame[0] <= FramePlan.MAX_SKIPPED && sinceFrame[1] <= FramePlan.MAX_SKIPPED);
    }
    assertTrue(added > 100, "idle links got empty frames: " + added);
  }

  private static int[] lengths(boolean frame, int peer) {
    int[] lengths = new int[2];
    lengths[peer] = frame ? 5 : Channel.NO_FRAME;
    return lengths;
  }

  @Test
  void next_everyFrameAsked_sendsAndTakesOnEveryLinkEveryRound() {
    FramePlan plan = new FramePlan(1, 3);
    for (int r = 0; r < 5; r++) {
      plan.next(new int[3], null);
      assertTrue(plan.sends(0) && plan.sends(2) && plan.takes(0) && plan.takes(2));
    }
  }

  /** A frame of another round, or words in a frame the plan added, is refused naming the round. */
  @Test
  void refusal_frameOfAnotherRoundOrWordsInAnAddedFrame_saysWhich() {
    FramePlan plan = new FramePlan(0, 2);
    for (int r = 0; r < 3; r++) {
      plan.next(new int[] {0, 1}, new boolean[] {false, false});
    }
    assertTrue(plan.takes(1), "the third idle round takes a frame");
    String different = ": the parties are running different computations or versions";
    assertEquals(
        " sent a frame for round 1, in which this party expected none from it" + different,
        plan.refusal(1, 1, 2, 0));
    assertEquals(
        " sent no frame for round 2 (its next is for round 3)" + different,
        plan.refusal(1, 3, 2, 0));
    assertEquals(
        " sent 4 words in round 2, in which this party expected none from it" + different,
        plan.refusal(1, 2, 2, 4));
    assertNull(plan.refusal(1, 2, 2, 0), "the empty frame the plan added is taken");
    assertNull(plan.deliver(1, new long[0]), "and the caller gets nothing");
  }

  /** Channels that send every frame keep the unasked ones out of the caller's sight. */
  @Test
  void keepWanted_emptyUnaskedFramesDropped_wordsInOneRefused() {
    long[] asked = {4, 5};
    long[][] received = {null, asked, new long[0]};
    assertArrayEquals(new int[] {0, 2, 0}, FramePlan.everyFrame(new int[] {0, 2, -1}));
    long[][] kept = FramePlan.keepWanted(received, new boolean[] {false, true, false}, 0, 9);
    assertSame(asked, kept[1]);
    assertNull(kept[2]);
    AbortException e =
        assertThrows(
            AbortException.class,
            () ->
                FramePlan.keepWanted(
                    new long[][] {null, new long[3], null},
                    new boolean[] {false, false, true},
                    0,
                    9));
    assertEquals(
        "P1 sent 3 words in round 9, in which this party expected none from it: the parties are"
            + " running different computations or versions",
        e.getMessage());
  }
}
