package dev.cohort.offline.mascot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.api.PeerAbortedException;
import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.spdz.MaterialException;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Attacks by a corrupt P2 of three parties (its channel alters its messages, or it alters its own
 * shares): every honest party aborts with the check that caught it, and no material of that batch
 * is returned.
 */
class MascotCheatTest {

  private static final int N = 3;
  private static final int CHEATER = N - 1;
  private static final int M = 8; // triples per batch
  private static final Field F = Fields.MERSENNE_127;
  private static final int W = F.words();
  private static final int K = F.bitLength();

  @Test
  void triples_wrongMultiplicationCorrection_sacrificeAborts() {
    // round 0: the Gilboa corrections; element h = 0 of triple 0 in every bit row l
    int[] words = new int[K];
    for (int l = 0; l < K; l++) {
      words[l] = l * M * MascotPreprocessing.TAU * W;
    }
    assertHonestAbort(channelCheat(0, words), "sacrifice check failed");
  }

  @Test
  void triples_inconsistentCopeRows_authenticationAborts() {
    // round 2: the COPE rows of the 5M + 1 values (dummy first); value 1 in every bit row l
    int values = 5 * M + 1;
    int[] words = new int[K];
    for (int l = 0; l < K; l++) {
      words[l] = (l * values + 1) * W;
    }
    assertHonestAbort(channelCheat(2, words), "authentication check of P2's values failed");
  }

  @Test
  void triples_wrongMacShare_macCheckAborts() {
    Deviation macs =
        new Deviation() {
          @Override
          public void openingShares(long[] shares, long[] m) {
            m[0] ^= 2;
          }
        };
    assertHonestAbort(
        run(p -> p == CHEATER ? macs : Deviation.NONE, c -> c, pre -> pre.triples(M)),
        "MAC check of the sacrifice openings failed");
  }

  @Test
  void triples_wrongOpenedShare_macCheckAborts() {
    Deviation shares =
        new Deviation() {
          @Override
          public void openingShares(long[] s, long[] m) {
            s[0] ^= 2;
          }
        };
    assertHonestAbort(
        run(p -> p == CHEATER ? shares : Deviation.NONE, c -> c, pre -> pre.triples(M)),
        "MAC check of the sacrifice openings failed");
  }

  @Test
  void triples_seedNotMatchingCommitment_coinTossAborts() {
    assertHonestAbort(channelCheat(1, new int[] {0}), "coin toss failed");
  }

  @Test
  void triples_sigmaNotMatchingCommitment_macCheckAborts() {
    assertHonestAbort(channelCheat(7, new int[] {0}), "does not match its commitment");
  }

  @Test
  void triples_sigmaCheatSeenByOneHonestParty_everyHonestPartyFailsNamingTheCheck() {
    // Only P0 receives a σ that does not match its commitment: P0 aborts naming the check and
    // tells its peers; P1 must not return the batch either, and its failure names the check.
    List<MascotParties.Outcome<Object>> outcomes =
        run(
            p -> Deviation.NONE,
            c -> c.myId() == CHEATER ? new TamperingChannel(c, 7, new int[] {0}, 0) : c,
            pre -> pre.triples(M));
    Throwable caught = outcomes.get(0).failure();
    assertNotNull(caught, "P0 returned material despite the cheat");
    assertEquals(AbortException.class, caught.getClass(), "P0: " + caught);
    assertTrue(caught.getMessage().contains("does not match its commitment"), caught.getMessage());
    Throwable bystander = outcomes.get(1).failure();
    assertNotNull(bystander, "P1 returned material although P0 caught a cheat");
    assertEquals(PeerAbortedException.class, bystander.getClass(), "P1: " + bystander);
    assertTrue(
        bystander.getMessage().contains("P0 aborted")
            && bystander.getMessage().contains("does not match its commitment"),
        "P1: " + bystander);
  }

  @Test
  void randomElements_inconsistentCopeRows_authenticationAborts() {
    int values = 4 + 1;
    int[] words = new int[K];
    for (int l = 0; l < K; l++) {
      words[l] = (l * values + 1) * W;
    }
    List<MascotParties.Outcome<Object>> outcomes =
        run(
            p -> Deviation.NONE,
            c -> c.myId() == CHEATER ? new TamperingChannel(c, 0, words) : c,
            pre -> pre.randomElements(4));
    assertHonestAbort(outcomes, "authentication check of P2's values failed");
  }

  @Test
  void randomBits_wrongOpenedShare_macCheckAborts() {
    Deviation second =
        new Deviation() {
          private int calls;

          @Override
          public void openingShares(long[] s, long[] m) {
            if (calls++ == 1) { // the first is the triples' sacrifice, the second Beaver's d, e
              s[0] ^= 2;
            }
          }
        };
    assertHonestAbort(
        run(p -> p == CHEATER ? second : Deviation.NONE, c -> c, pre -> pre.randomBits(5)),
        "MAC check of the random-bit openings failed");
  }

  @Test
  void inputBits_wrongOpenedShare_macCheckAborts() {
    Deviation last =
        new Deviation() {
          private int calls;

          @Override
          public void openingShares(long[] s, long[] m) {
            if (calls++ == 2) { // sacrifice, random bits, then the input bits' opening
              s[0] ^= 2;
            }
          }
        };
    assertHonestAbort(
        run(p -> p == CHEATER ? last : Deviation.NONE, c -> c, pre -> pre.inputBits(0, 5)),
        "MAC check of the input-bit openings failed");
  }

  @Test
  void abortedInstance_refusesLaterCalls() {
    int[] words = new int[K];
    for (int l = 0; l < K; l++) {
      words[l] = l * M * MascotPreprocessing.TAU * W;
    }
    List<MascotParties.Outcome<Object>> outcomes =
        run(
            p -> Deviation.NONE,
            c -> c.myId() == CHEATER ? new TamperingChannel(c, 0, words) : c,
            pre -> {
              assertThrows(AbortException.class, () -> pre.triples(M));
              return assertThrows(MaterialException.class, () -> pre.randomElements(1))
                  .getMessage();
            });
    for (int p = 0; p < CHEATER; p++) {
      assertNull(outcomes.get(p).failure());
      String message = (String) outcomes.get(p).result();
      assertTrue(message.startsWith("an earlier MASCOT run of this instance failed"), message);
    }
  }

  @Test
  void onlineMacCheckFailed_refusesMoreMaterial() {
    List<String> messages =
        MascotParties.run(
            F,
            2,
            5,
            (p, pre) -> {
              pre.beforeMacReveal();
              pre.macCheckFailed();
              return assertThrows(MaterialException.class, () -> pre.triples(1)).getMessage();
            });
    assertTrue(messages.get(0).contains("may be known to a cheating party"), messages.get(0));
  }

  private static List<MascotParties.Outcome<Object>> channelCheat(int round, int[] words) {
    return run(
        p -> Deviation.NONE,
        c -> c.myId() == CHEATER ? new TamperingChannel(c, round, words) : c,
        pre -> pre.triples(M));
  }

  private static List<MascotParties.Outcome<Object>> run(
      IntFunction<Deviation> deviations,
      UnaryOperator<dev.cohort.net.Channel> channels,
      java.util.function.Function<MascotPreprocessing, Object> task) {
    return MascotParties.run(F, N, 11, deviations, channels, (p, pre) -> task.apply(pre));
  }

  private static void assertHonestAbort(
      List<MascotParties.Outcome<Object>> outcomes, String check) {
    assertEquals(N, outcomes.size());
    for (int p = 0; p < N; p++) {
      if (p == CHEATER) {
        continue;
      }
      Throwable t = outcomes.get(p).failure();
      assertNotNull(t, "P" + p + " returned material despite the cheat");
      assertEquals(AbortException.class, t.getClass(), "P" + p + ": " + t);
      assertTrue(t.getMessage().contains(check), "P" + p + ": " + t.getMessage());
    }
  }
}
