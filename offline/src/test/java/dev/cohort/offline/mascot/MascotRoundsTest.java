package dev.cohort.offline.mascot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.net.Channel;
import dev.cohort.suite.Shares;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rounds do not grow with the batch (one frame per peer per round), and a request beyond {@link
 * MascotPreprocessing#MAX_BATCH} runs as several protocol runs that together return it all.
 */
class MascotRoundsTest {

  private static final Field F = Fields.MERSENNE_61;

  @Test
  void triples_smallAndLargeBatch_sameRounds() {
    Channel[] channels = new Channel[2];
    List<MascotParties.Outcome<long[]>> frames =
        MascotParties.run(
            F,
            2,
            21,
            p -> Deviation.NONE,
            c -> channels[c.myId()] = c,
            (p, pre) -> {
              Channel c = channels[p];
              long before = c.stats().totalFramesSent();
              pre.triples(3);
              long small = c.stats().totalFramesSent() - before;
              pre.triples(700); // more than one block of COPE and Gilboa
              long large = c.stats().totalFramesSent() - before - small;
              pre.randomElements(5);
              long random = c.stats().totalFramesSent() - before - small - large;
              return new long[] {small, large, random};
            });
    for (MascotParties.Outcome<long[]> o : frames) {
      assertEquals(null, o.failure());
      assertEquals(9, o.result()[0], "rounds of 3 triples");
      assertEquals(9, o.result()[1], "rounds of 700 triples");
      assertEquals(7, o.result()[2], "rounds of 5 random elements");
    }
  }

  @Test
  void randomElements_beyondOneRun_allAuthenticated() {
    int count = MascotPreprocessing.MAX_BATCH + 3;
    List<Object[]> drawn =
        MascotParties.run(
            F, 2, 22, (p, pre) -> new Object[] {pre.macKeyShare(), pre.randomElements(count)});
    java.math.BigInteger p = F.modulus();
    java.math.BigInteger alpha =
        F.toBigInteger((long[]) drawn.get(0)[0], 0)
            .add(F.toBigInteger((long[]) drawn.get(1)[0], 0));
    Shares s0 = (Shares) drawn.get(0)[1];
    Shares s1 = (Shares) drawn.get(1)[1];
    assertEquals(count, s0.length);
    for (int i = 0; i < count; i += 997) {
      java.math.BigInteger v = F.toBigInteger(s0.share, i).add(F.toBigInteger(s1.share, i)).mod(p);
      java.math.BigInteger m = F.toBigInteger(s0.mac, i).add(F.toBigInteger(s1.mac, i)).mod(p);
      assertEquals(alpha.multiply(v).mod(p), m, "element " + i);
    }
    int last = count - 1;
    java.math.BigInteger v =
        F.toBigInteger(s0.share, last).add(F.toBigInteger(s1.share, last)).mod(p);
    java.math.BigInteger m = F.toBigInteger(s0.mac, last).add(F.toBigInteger(s1.mac, last)).mod(p);
    assertEquals(alpha.multiply(v).mod(p), m, "last element");
  }
}
