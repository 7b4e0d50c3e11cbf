package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort demo distance-average --suite spdz --preprocessing DIR} stopped and restarted from
 * its checkpoint: the second run continues in the dealer files where the first stopped, so no
 * preprocessed material is used twice.
 */
class SpdzRestartTest {

  private static final int PARTIES = 3;

  @TempDir Path dir;

  /**
   * What party {@code p} has used of its file, as its use record {@code party-<p>.spdz.used}
   * records: triples, random elements, random bits, the input masks of each owner, then the input
   * bits of each owner.
   */
  private static long[] used(Path files, int p) throws IOException {
    ByteBuffer b =
        ByteBuffer.wrap(Files.readAllBytes(files.resolve("party-" + p + ".spdz.used")))
            .order(ByteOrder.LITTLE_ENDIAN);
    // magic, version, party, parties, 3 + 2n counts, id (2), check mark, checksum
    assertEquals(8 * (11 + 2 * PARTIES), b.capacity());
    assertEquals(p, b.getLong(16));
    assertEquals(0, b.getLong(8 * (9 + 2 * PARTIES)), "no MAC check in flight after a clean run");
    long[] used = new long[3 + 2 * PARTIES];
    for (int k = 0; k < used.length; k++) {
      used[k] = b.getLong(32 + 8 * k);
    }
    return used;
  }

  /** Every party's record, checked to agree: the parties drew the same material. */
  private static long[] usedByAll(Path files) throws IOException {
    long[] p0 = used(files, 0);
    for (int p = 1; p < PARTIES; p++) {
      assertArrayEquals(p0, used(files, p), "P" + p + " against P0");
    }
    return p0;
  }

  @Test
  void restart_fromCheckpoint_continuesInTheDealerFiles_sumMatchesPlaintext() throws IOException {
    Path files = dir.resolve("spdz");
    Cli.Run dealt =
        cohort(
            "preprocess",
            "--parties",
            String.valueOf(PARTIES),
            "--inputs",
            "8", // one per session (its opening to the server): see DistanceAverageParty.Material
            // The server's input bits over the two runs of 3 and 5 sessions, batches of 2: 2·32
            // resume bits in each run, 62 per batch (2 + 3 batches); 32 per session at a device.
            "--input-bits",
            String.valueOf(2 * 2 * 32 + (2 + 3) * 62),
            "--out",
            files.toString());
    assertEquals(0, dealt.exitCode(), dealt.all());
    Path checkpoint = dir.resolve("server.checkpoint");
    String[] common = {
      "demo",
      "distance-average",
      "--suite",
      "spdz",
      "--devices",
      String.valueOf(PARTIES - 1),
      "--sessions",
      "8",
      "--seed",
      "6",
      "--parallelism",
      "2",
      "--preprocessing",
      files.toString(),
      "--insecure-plaintext",
      "--checkpoint",
      checkpoint.toString()
    };

    Cli.Run first = cohort(concat(common, "--stop-after", "3"));
    assertEquals(0, first.exitCode(), first.all());
    assertEquals(3, Cli.lastSession(first.out()));
    long[] afterFirst = usedByAll(files);
    assertTrue(Arrays.stream(afterFirst).sum() > 0, Arrays.toString(afterFirst));

    Cli.Run second = cohort(common);
    assertEquals(0, second.exitCode(), second.all());
    assertTrue(second.out().contains("sessions:         4..8 of 8"), second.out());
    assertFalse(second.out().contains("session 3:"), second.out());
    assertEquals(8, Cli.lastSession(second.out()));
    assertEquals(
        Cli.plaintextSum(Traces.generate(6, PARTIES - 1, 8), 8), Cli.runningSum(second.out()));
    assertTrue(second.out().contains("(match)"), second.out());

    // The second run drew after what the first had used, kind by kind: nothing was used twice.
    long[] afterSecond = usedByAll(files);
    for (int k = 0; k < afterFirst.length; k++) {
      assertTrue(
          afterSecond[k] >= afterFirst[k],
          Arrays.toString(afterFirst) + " then " + Arrays.toString(afterSecond));
    }
    for (int owner = 0; owner < PARTIES; owner++) {
      // every party inputs every session: each owner's input bits moved on
      assertTrue(
          afterSecond[3 + PARTIES + owner] > afterFirst[3 + PARTIES + owner],
          Arrays.toString(afterFirst) + " then " + Arrays.toString(afterSecond));
    }
  }

  @Test
  void restart_useRecordsDeleted_refusedInsteadOfReusingMasks() throws IOException {
    Path files = dir.resolve("spdz");
    Cli.Run dealt =
        cohort(
            "preprocess",
            "--parties",
            String.valueOf(PARTIES),
            "--inputs",
            "1", // one session: one opening to the server (DistanceAverageParty.Material)
            "--input-bits",
            "158", // the server's 3·32 resume bits and one 62-bit sum; 32 at each device
            "--out",
            files.toString());
    assertEquals(0, dealt.exitCode(), dealt.all());
    String[] run = {
      "demo",
      "distance-average",
      "--suite",
      "spdz",
      "--devices",
      String.valueOf(PARTIES - 1),
      "--sessions",
      "1",
      "--preprocessing",
      files.toString()
    };
    Cli.Run first = cohort(run);
    assertEquals(0, first.exitCode(), first.all());
    for (int p = 0; p < PARTIES; p++) {
      Files.delete(files.resolve("party-" + p + ".spdz.used"));
    }

    // Without the records every party would draw the first run's masks again.
    Cli.Run second = cohort(run);

    assertEquals(ExitCode.CONFIGURATION, second.exitCode(), second.all());
    assertTrue(
        second
            .err()
            .matches("(?s)cohort: P[0-2] failed: .*party-[0-2]\\.spdz\\.used is missing: .*"),
        second.err());
    assertTrue(
        second
            .err()
            .contains(
                " earlier runs used (the dealer creates it with the file), and without it that"
                    + " material could be used twice; deal fresh files with 'cohort preprocess'"),
        second.err());
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
