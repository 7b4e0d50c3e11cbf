package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort preprocess --party I --parties FILE}: three parties make their SPDZ material among
 * themselves over TLS, each writing only its own file, and the distance-average demo runs on it and
 * matches its plaintext.
 */
class OfflinePreprocessTest {

  private static final int PARTIES = 3;
  private static final int SESSIONS = 3;

  @TempDir Path dir;

  @Test
  void preprocess_eachPartyOnItsOwn_demoOnTheFilesMatchesPlaintext() throws IOException {
    Cli.Run keys = Cli.cohort("keys", "--parties", "3", "--out", dir.resolve("keys").toString());
    assertEquals(0, keys.exitCode(), keys.all());
    Path parties = partiesFile();
    Path files = dir.resolve("spdz");
    List<CompletableFuture<Cli.Run>> runs = new ArrayList<>();
    for (int p = 0; p < PARTIES; p++) {
      String id = String.valueOf(p);
      runs.add(
          CompletableFuture.supplyAsync(
              () ->
                  Cli.cohort(
                      "preprocess",
                      "--party",
                      id,
                      "--parties",
                      parties.toString(),
                      "--sessions",
                      String.valueOf(SESSIONS),
                      "--out",
                      files.toString())));
    }
    for (int p = 0; p < PARTIES; p++) {
      Cli.Run r = runs.get(p).join();
      assertEquals(0, r.exitCode(), "P" + p + ": " + r.all());
      assertTrue(r.out().contains("made by the parties' offline phase"), r.all());
      assertTrue(Files.exists(files.resolve("party-" + p + ".spdz")), r.all());
    }
    Cli.Run demo =
        Cli.cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--devices",
            String.valueOf(PARTIES - 1),
            "--sessions",
            String.valueOf(SESSIONS),
            "--seed",
            "4",
            "--preprocessing",
            files.toString(),
            "--insecure-plaintext");
    assertEquals(0, demo.exitCode(), demo.all());
    assertEquals(
        Cli.plaintextSum(Traces.generate(4, PARTIES - 1, SESSIONS), SESSIONS),
        Cli.runningSum(demo.out()));

    // The material is never handed out twice: a second run finds it used up, and with a party's
    // use record deleted that party refuses instead of starting its file over.
    Cli.Run again = Cli.cohort(demoOn(files));
    assertEquals(ExitCode.MATERIAL, again.exitCode(), again.all());
    assertTrue(again.err().contains("ran out of"), again.all());
    Path record = files.resolve("party-0.spdz.used");
    assertTrue(Files.exists(record), "the offline phase writes a use record with the file");
    Files.delete(record);
    Cli.Run deleted = Cli.cohort(demoOn(files));
    assertNotEquals(0, deleted.exitCode(), deleted.all());
    assertTrue(deleted.err().contains("P0 failed: " + record + " is missing"), deleted.all());
  }

  private static String[] demoOn(Path files) {
    return new String[] {
      "demo",
      "distance-average",
      "--suite",
      "spdz",
      "--devices",
      String.valueOf(PARTIES - 1),
      "--sessions",
      "1",
      "--seed",
      "5",
      "--preprocessing",
      files.toString(),
      "--insecure-plaintext"
    };
  }

  @Test
  void demo_offlinePhaseInTheBackground_matchesPlaintextAndReportsTheWait() {
    Cli.Run demo =
        Cli.cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--offline-phase",
            "--devices",
            "2",
            "--sessions",
            "2",
            "--seed",
            "9",
            "--no-progress");
    assertEquals(0, demo.exitCode(), demo.all());
    assertEquals(Cli.plaintextSum(Traces.generate(9, 2, 2), 2), Cli.runningSum(demo.out()));
    assertTrue(demo.out().contains("offline phase:    MASCOT in the background"), demo.out());
    assertTrue(demo.out().contains("the online phase waited"), demo.out());
  }

  @Test
  void demo_offlinePhaseWithDealerSeed_refusedClearly() {
    Cli.Run r =
        Cli.cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--offline-phase",
            "--insecure-dealer-seed",
            "3");
    assertEquals(ExitCode.CONFIGURATION, r.exitCode(), r.all());
    assertTrue(r.err().contains("--offline-phase is for --suite spdz"), r.all());
  }

  @Test
  void preprocess_partiesFileWithoutParty_refusedClearly() {
    Cli.Run r = Cli.cohort("preprocess", "--parties", "parties.txt", "--out", dir.toString());
    assertNotEquals(0, r.exitCode(), r.all());
    assertTrue(r.err().contains("--party I"), r.all());
  }

  private Path partiesFile() throws IOException {
    Path parties = dir.resolve("parties.txt");
    StringBuilder file = new StringBuilder("# id host port\nkeys keys\n");
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int p = 0; p < PARTIES; p++) {
        ServerSocket s = new ServerSocket(0);
        sockets.add(s);
        file.append(p).append(" 127.0.0.1 ").append(s.getLocalPort()).append('\n');
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
    Files.writeString(parties, file);
    return parties;
  }
}
