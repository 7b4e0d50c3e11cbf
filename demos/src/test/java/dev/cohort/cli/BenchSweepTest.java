package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            "--repeat",
            "1",
            "--warmup-runs",
            "1",
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
  void sweep_repeatThree_eachPointHasThreeRunsAndItsMedianIsTheMiddleOne() throws Exception {
    Cli.Run run =
        cohort(
            "bench",
            "sweep",
            "--parties",
            "3,4",
            "--parallelism",
            "1,2",
            "--latency-ms",
            "0",
            "--sessions",
            "2",
            "--repeat",
            "3",
            "--warmup-runs",
            "2",
            "--insecure-plaintext",
            "--out",
            dir.toString());

    assertEquals(0, run.exitCode(), run.all());
    List<Map<String, String>> points = readCsv(dir.resolve("sweep.csv"));
    List<Map<String, String>> runs = readCsv(dir.resolve("sweep-runs.csv"));
    assertEquals(5, points.size());
    for (Map<String, String> p : points) {
      String where = p.toString();
      assertEquals("3", p.get("repeats"), where);
      // settling takes two windows of three runs, so two warm-up runs cannot have settled
      assertEquals("2", p.get("warmup_runs"), where);
      assertEquals("false", p.get("warmup_settled"), where);
      double median = Double.parseDouble(p.get("ms_per_session"));
      double min = Double.parseDouble(p.get("ms_per_session_min"));
      double max = Double.parseDouble(p.get("ms_per_session_max"));
      assertTrue(min <= median && median <= max, where);

      double[] measured =
          runs.stream()
              .filter(r -> samePoint(r, p) && r.get("phase").equals("measure"))
              .mapToDouble(r -> Double.parseDouble(r.get("ms_per_session")))
              .toArray();
      assertEquals(3, measured.length, where);
      Arrays.sort(measured);
      assertEquals(measured[1], median, 1e-6, where);
      assertEquals(measured[0], min, 1e-6, where);
      assertEquals(measured[2], max, 1e-6, where);
    }
    for (String sweep : new String[] {"parties", "parallelism", "latency"}) {
      List<Map<String, String>> warmUp =
          runs.stream()
              .filter(r -> r.get("sweep").equals(sweep) && r.get("phase").equals("warmup"))
              .toList();
      assertEquals(2, warmUp.size(), sweep);
      for (Map<String, String> w : warmUp) { // the first setting of the sweep, no other
        assertEquals("3", w.get("parties"), sweep);
        assertEquals("1", w.get("parallelism"), sweep);
        assertEquals("0.0", w.get("latency_ms"), sweep);
      }
    }
    assertEquals(2 * 3 + 5 * 3, runs.size()); // warm-up runs and measured runs, nothing else
    assertTrue(
        run.out()
            .contains(
                "parties: the times per session had not settled after 2 warm-up runs; measuring"
                    + " anyway"),
        run.out());
  }

  @Test
  void sweep_evenOrNoRepeat_isRefusedSayingWhy() {
    for (String repeat : new String[] {"4", "0"}) {
      Cli.Run run = cohort("bench", "sweep", "--repeat", repeat, "--out", dir.toString());

      assertEquals(2, run.exitCode(), run.all());
      assertTrue(
          run.err()
              .contains(
                  "repeat ("
                      + repeat
                      + ") must be odd and >= 1, so that the median is one of the runs"),
          run.all());
    }
    Cli.Run negative = cohort("bench", "sweep", "--warmup-runs", "-1", "--out", dir.toString());
    assertEquals(2, negative.exitCode(), negative.all());
    assertTrue(negative.err().contains("warmup-runs (-1) must be >= 0"), negative.all());
  }

  private static boolean samePoint(Map<String, String> run, Map<String, String> point) {
    for (String column : new String[] {"sweep", "parties", "parallelism", "latency_ms"}) {
      if (!run.get(column).equals(point.get(column))) {
        return false;
      }
    }
    return true;
  }

  /** The rows of a CSV file without quoting, each by its header's column names. */
  private static List<Map<String, String>> readCsv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    String[] header = lines.get(0).split(",", -1);
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      assertEquals(header.length, cells.length, line);
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
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
