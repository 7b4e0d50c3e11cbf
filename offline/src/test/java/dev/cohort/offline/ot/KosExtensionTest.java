package dev.cohort.offline.ot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.random.Prg;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class KosExtensionTest {

  private static OtRuns.Factory honest() {
    return (channel, party) -> new KosExtension(channel, Prg.seeded(100 + party));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 5})
  void transfer_randomChoices_receiverGetsChosenKeyOnly(int parties) {
    int[] counts = {1, 63, 64, 1000, 0, 129};
    OtRuns.assertCorrect(OtRuns.run(parties, 11, honest(), counts), counts);
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void transfer_largeBatches_receiverGetsChosenKeyOnly(int parties) {
    int[] counts = {100_000, 100_001};
    OtRuns.assertCorrect(OtRuns.run(parties, 12, honest(), counts), counts);
  }

  @Test
  void transfer_idealBaseOts_receiverGetsChosenKeyOnly() {
    // The extension over any PairwiseOts, here a second extension as its base.
    int[] counts = {77, 640};
    OtRuns.Factory nested =
        (channel, party) ->
            new KosExtension(
                channel, new KosExtension(channel, Prg.seeded(party)), Prg.seeded(200 + party));
    OtRuns.assertCorrect(OtRuns.run(3, 13, nested, counts), counts);
  }

  /**
   * P1 tampers with its frame of {@code round} to P0; P0 must abort naming P1 and {@code check}.
   */
  private static void assertAbortsOnTamper(
      int round, TamperingChannel.Tamper tamper, String check) {
    PartyFailedException failure =
        assertThrows(
            PartyFailedException.class,
            () ->
                OtRuns.run(
                    2,
                    14,
                    (channel, party) ->
                        new KosExtension(
                            party == 1 ? new TamperingChannel(channel, round, tamper) : channel,
                            Prg.seeded(party)),
                    300));
    PartyFailedException honest =
        failure.failures().stream().filter(f -> f.party().index() == 0).findFirst().orElseThrow();
    assertTrue(honest.getCause() instanceof AbortException, honest.getMessage());
    String message = honest.getCause().getMessage();
    assertTrue(message.startsWith("P1 failed the " + check), message);
  }

  // Rounds: 0 and 1 are the base OTs, 2 carries u and the commitment, 3 the opening, 4 (x, t).

  @Test
  void transfer_inconsistentChoiceBitsAcrossColumns_senderAborts() {
    // The receiver flips row 5's choice bit in columns 0-63 only: as if it had used different
    // choice bits for that row in different columns (a selective-failure probe of Δ).
    assertAbortsOnTamper(
        2,
        (outgoing, lengths) -> {
          int words = (lengths[0] - 4) / KosExtension.KAPPA;
          for (int i = 0; i < 64; i++) {
            outgoing[0][i * words] ^= 1L << 5;
          }
        },
        "OT extension consistency check");
  }

  @Test
  void transfer_tamperedCheckValue_senderAborts() {
    assertAbortsOnTamper(
        4, (outgoing, lengths) -> outgoing[0][2] ^= 1, "OT extension consistency check");
  }

  @Test
  void transfer_openingDiffersFromCommitment_aborts() {
    assertAbortsOnTamper(
        3, (outgoing, lengths) -> outgoing[0][0] ^= 1, "coin-toss commitment check");
  }

  @Test
  void transfer_truncatedColumns_aborts() {
    assertAbortsOnTamper(2, (outgoing, lengths) -> lengths[0] -= 3, "frame length check");
  }

  @Test
  void transfer_truncatedCheck_aborts() {
    assertAbortsOnTamper(4, (outgoing, lengths) -> lengths[0] = 3, "frame length check");
  }

  @Test
  void transfer_badArguments_areRejectedBeforeAnyRound() {
    var network = new dev.cohort.net.InMemoryNetwork(2, java.time.Duration.ofSeconds(1));
    var channel = network.channel(0);
    KosExtension ots = new KosExtension(channel, Prg.seeded(1));
    IllegalArgumentException tooMany =
        assertThrows(
            IllegalArgumentException.class,
            () -> ots.transfer(KosExtension.MAX_COUNT + 1, new long[2][]));
    assertTrue(tooMany.getMessage().startsWith("count (67108865) must be in [0, 67108864]"));
    IllegalArgumentException shortChoices =
        assertThrows(
            IllegalArgumentException.class, () -> ots.transfer(65, new long[][] {null, {1}}));
    assertEquals(
        "choices for P1 must hold 65 bits (2 words), got 1 words", shortChoices.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ots.transfer(1, new long[2][]));
    assertEquals(0, channel.stats().totalFramesSent());
  }
}
