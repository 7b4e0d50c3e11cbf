package dev.cohort.offline.mascot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.field.Field;
import dev.cohort.field.Fields;
import dev.cohort.harness.PartyThreads;
import dev.cohort.net.Channel;
import dev.cohort.net.InMemoryNetwork;
import dev.cohort.net.TrafficStats;
import dev.cohort.offline.OfflinePhase;
import dev.cohort.offline.ot.InsecureIdealOts;
import dev.cohort.random.Prg;
import dev.cohort.spdz.SpdzPreprocessing;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bytes on the wire per triple against the cost model in {@link MascotPreprocessing}'s javadoc,
 * with the model's figures computed here from its formula, not from a run: every party makes a
 * batch of {@value #SMALL} and one of {@value #LARGE} triples over the in-memory transport (which
 * counts 8 bytes per word, no framing), and for every ordered pair of parties
 *
 * <ul>
 *   <li>the bytes per triple, (bytes of the large batch − bytes of the small) / ({@value #LARGE} −
 *       {@value #SMALL}), are the model's ((τ + 5)·k + 1)·8w with ideal OTs, plus the KOS
 *       extension's 16 bytes per OT with k OTs as receiver per triple, to within the extension's
 *       rounding of its rows to 64 (at most 1 KiB per batch, 2 bytes per triple here);
 *   <li>each batch's bytes are exactly that per-triple figure times the batch plus the fixed bytes
 *       of one protocol run, which the difference above cancels: (k + n + 3)·8w + 312 bytes (the
 *       dummy COPE row of the authentication check, k elements; its opened y; three joint seeds,
 *       each a 4-word commitment and a 6-word opening; the MAC check's 4-word commitment and its
 *       opening, n + 2 groups' σ and a 4-word nonce, and its one-word confirmation), plus with the
 *       KOS extension the 192 padding rows of its correlation check (16 bytes each), the rounding
 *       of its rows up to a multiple of 64 and 12 words of its coin toss and check.
 * </ul>
 *
 * The one-off set-up (the base OTs of COPE when each party's preprocessing is made, the KOS
 * extension's base OTs at its first call) is out of both figures: a warm-up batch runs first.
 */
class MascotTrafficTest {

  private static final int WARM_UP = 8;
  private static final int SMALL = 64;
  private static final int LARGE = 576;
  private static final int TAU = 3; // the paper's τ, as the javadoc's formula uses it

  @ParameterizedTest(name = "{0} parties, {1}, {2} OTs")
  @CsvSource({
    "2, m127, ideal",
    "3, m127, ideal",
    "2, m61, ideal",
    "3, m61, ideal",
    "2, m127, kos",
    "3, m127, kos"
  })
  void triples_bytesPerPeer_matchTheCostModel(int n, String fieldName, String ots) {
    Field field = fieldName.equals("m127") ? Fields.MERSENNE_127 : Fields.MERSENNE_61;
    boolean kos = ots.equals("kos");
    int k = field.modulus().bitLength();
    int w = (k + 63) / 64;
    List<long[][]> sent = sentPerBatch(field, n, kos);
    long perTriple = ((TAU + 5L) * k + 1) * 8 * w + (kos ? 16L * k : 0);
    for (int p = 0; p < n; p++) {
      for (int q = 0; q < n; q++) {
        if (q == p) {
          continue;
        }
        long small = sent.get(p)[0][q];
        long large = sent.get(p)[1][q];
        String pair = "P" + p + " -> P" + q;
        double measured = (double) (large - small) / (LARGE - SMALL);
        assertEquals(perTriple, measured, kos ? 2.0 : 0.0, pair + ": bytes per triple");
        assertEquals(SMALL * perTriple + fixed(SMALL, k, w, n, kos), small, pair + ": small batch");
        assertEquals(LARGE * perTriple + fixed(LARGE, k, w, n, kos), large, pair + ": large batch");
      }
    }
    if (fieldName.equals("m127")) { // the javadoc's figures over 2^127 − 1
      assertEquals(kos ? 18_304 : 16_272, perTriple);
    }
  }

  /**
   * The bytes of one run of m triples to each peer beyond m times the per-triple figure: see the
   * class comment.
   */
  private static long fixed(int m, int k, int w, int n, boolean kos) {
    long mascot = (k + n + 3L) * 8 * w + 312;
    if (!kos) {
      return mascot;
    }
    long rows = 64 * ((k * (long) m + 192 + 63) / 64);
    return mascot + 16 * rows - 16L * k * m + 12 * 8;
  }

  /**
   * Every party's bytes sent to each peer in the small and the large batch: [party][batch][peer].
   */
  private static List<long[][]> sentPerBatch(Field field, int n, boolean kos) {
    InMemoryNetwork net = new InMemoryNetwork(n, Duration.ofSeconds(60));
    try (PartyThreads threads = PartyThreads.standing(n, Duration.ofSeconds(60))) {
      return threads.run(
          p -> {
            Channel c = net.channel(p);
            SpdzPreprocessing pre =
                kos
                    ? OfflinePhase.start(field, c)
                    : new MascotPreprocessing(
                        field,
                        c,
                        new InsecureIdealOts(31, 1, p, n),
                        new InsecureIdealOts(31, 2, p, n),
                        Prg.seeded(310 + p));
            pre.triples(WARM_UP);
            long[][] out = new long[2][];
            int[] sizes = {SMALL, LARGE};
            for (int i = 0; i < 2; i++) {
              TrafficStats before = c.stats().copy();
              pre.triples(sizes[i]);
              out[i] = c.stats().since(before).bytesSent;
            }
            return out;
          });
    }
  }
}
