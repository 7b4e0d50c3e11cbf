package dev.cohort.offline.ot;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.harness.PartyFailedException;
import dev.cohort.random.Prg;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BaseOtsTest {

  @ParameterizedTest
  @ValueSource(ints = {2, 3, 5})
  void transfer_randomChoices_receiverGetsChosenKeyOnly(int parties) {
    int[] counts = {1, 63, 64, 130};
    List<OtRuns.PartyResult> results =
        OtRuns.run(parties, 7, (channel, party) -> new BaseOts(channel, Prg.seeded(party)), counts);
    OtRuns.assertCorrect(results, counts);
  }

  @Test
  void transfer_zeroCount_returnsEmptyKeys() {
    List<OtRuns.PartyResult> results =
        OtRuns.run(2, 8, (channel, party) -> new BaseOts(channel, Prg.seeded(party)), 0);
    OtRuns.assertCorrect(results, 0);
  }

  @Test
  void transfer_negativeCount_isRejected() {
    var network = new dev.cohort.net.InMemoryNetwork(2, java.time.Duration.ofSeconds(1));
    BaseOts ots = new BaseOts(network.channel(0), Prg.seeded(1));
    assertThrows(IllegalArgumentException.class, () -> ots.transfer(-1, new long[2][]));
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
                    9,
                    (channel, party) ->
                        new BaseOts(
                            party == 1 ? new TamperingChannel(channel, round, tamper) : channel,
                            Prg.seeded(party)),
                    5));
    PartyFailedException honest =
        failure.failures().stream().filter(f -> f.party().index() == 0).findFirst().orElseThrow();
    assertTrue(honest.getCause() instanceof AbortException, honest.getMessage());
    String message = honest.getCause().getMessage();
    assertTrue(message.startsWith("P1 failed the " + check), message);
  }

  /** Overwrites the 33-byte point at word {@code offset} of P1's frame to P0. */
  private static TamperingChannel.Tamper setPoint(int offset, byte[] encoded) {
    return (outgoing, lengths) -> {
      java.util.Arrays.fill(outgoing[0], offset, offset + BaseOts.POINT_WORDS, 0);
      for (int k = 0; k < encoded.length; k++) {
        outgoing[0][offset + k / 8] |= (encoded[k] & 0xFFL) << (8 * (k % 8));
      }
    };
  }

  /** A compressed encoding whose x has no point on P-256 (x^3 - 3x + b is not a square). */
  private static byte[] offCurve() {
    var curve = org.bouncycastle.crypto.ec.CustomNamedCurves.getByName("secp256r1").getCurve();
    for (int x = 1; ; x++) {
      byte[] encoded = new byte[33];
      encoded[0] = 2;
      encoded[32] = (byte) x;
      try {
        curve.decodePoint(encoded);
      } catch (IllegalArgumentException e) {
        return encoded;
      }
    }
  }

  @Test
  void transfer_offCurvePointAsSender_aborts() {
    assertAbortsOnTamper(0, setPoint(0, offCurve()), "base OT point check");
  }

  @Test
  void transfer_offCurvePointAsReceiver_aborts() {
    assertAbortsOnTamper(1, setPoint(3 * BaseOts.POINT_WORDS, offCurve()), "base OT point check");
  }

  @Test
  void transfer_pointAtInfinity_aborts() {
    assertAbortsOnTamper(0, setPoint(0, new byte[33]), "base OT point check");
  }

  @Test
  void transfer_coordinateAboveFieldPrime_aborts() {
    byte[] encoded = new byte[33];
    java.util.Arrays.fill(encoded, (byte) 0xFF);
    encoded[0] = 3;
    assertAbortsOnTamper(0, setPoint(0, encoded), "base OT point check");
  }

  @Test
  void transfer_nonzeroPadding_aborts() {
    assertAbortsOnTamper(
        1, (outgoing, lengths) -> outgoing[0][4] |= 1L << 60, "base OT point check");
  }

  @Test
  void transfer_truncatedFrame_aborts() {
    assertAbortsOnTamper(1, (outgoing, lengths) -> lengths[0]--, "frame length check");
  }
}
