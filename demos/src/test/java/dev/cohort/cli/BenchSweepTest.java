package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cohort bench sweep} in-process, on a tiny range. */
class BenchSweepTest {

  @TempDir Path dir;

  @Test
  void sweep_twoOfEachRange_writesCsvAndPngs() throws Exception {
    Cli.Run run =
        cohort(
            "bench",
            "sweep",
            "--parties",
            "3,4",
            "--parallelism",
            "1,2",
            "--latency-ms",
            "0,1",
            "--sessions",
            "3",
            "--insecure-plaintext",
            "--out",
            dir.toString());

    assertEquals(0, run.exitCode(), run.all());
    List<String> csv = Files.readAllLines(dir.resolve("sweep.csv"));
    assertEquals(7, csv.size(), String.join("\n", csv));
    assertTrue(
        csv.get(0).startsWith("sweep,parties,parallelism,latency_ms,bandwidth_mbit,sessions,"),
        csv.get(0));
    assertTrue(csv.get(2).startsWith("parties,4,1,0.0,0.0,3,"), csv.get(2));
    assertTrue(csv.get(4).startsWith("parallelism,3,2,0.0,0.0,3,"), csv.get(4));
    assertTrue(csv.get(6).startsWith("latency,3,1,1.0,0.0,3,"), csv.get(6));
    for (String png :
        new String[] {
          "time-per-session-vs-parties.png",
          "time-per-session-vs-parallelism.png",
          "time-per-session-vs-latency.png",
          "bytes-per-peer-vs-parties.png",
          "peak-heap-vs-parties.png"
        }) {
      byte[] bytes = Files.readAllBytes(dir.resolve(png));
      assertTrue(bytes.length > 1000 && bytes[1] == 'P' && bytes[2] == 'N', png);
    }
  }

  @Test
  void help_root_listsEveryCommand() {
    Cli.Run run = cohort("--help");

    assertEquals(0, run.exitCode());
    for (String command : new String[] {"demo", "bench", "keys", "preprocess"}) {
      assertTrue(
          run.out().lines().anyMatch(l -> l.strip().startsWith(command + " ")),
          command + " missing:\n" + run.out());
    }
  }
}
