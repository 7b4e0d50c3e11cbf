package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cohort bench clients} in-process, on a tiny range. */
class BenchClientsTest {

  @TempDir Path dir;

  @Test
  void clients_twoPoints_writeWallTimesAndTheServersCpuPerSession() throws Exception {
    Cli.Run run =
        cohort(
            "bench",
            "clients",
            "--clients",
            "4,8",
            "--repeat",
            "1",
            "--warmup",
            "0",
            "--out",
            dir.toString());

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("    8 clients: first session"), run.all());
    List<String> csv = Files.readAllLines(dir.resolve("clients.csv"));
    assertEquals("clients,system,measure,median_ms,min_ms,max_ms,repeats", csv.get(0));
    int cpuRows = 0;
    int connectedRows = 0;
    int floorRows = 0;
    for (String line : csv) {
      String[] f = line.split(",");
      if (f[1].equals("plain-tcp-INSECURE") && f[2].equals("connected sum")) {
        connectedRows++; // the baseline of a further session ran and checked its sum
      }
      if (f[1].equals("plain-tcp-INSECURE") && f[2].equals("further session messages")) {
        floorRows++; // every message of the floor arrived (else the run fails)
        assertTrue(Double.parseDouble(f[3]) > 0, line);
      }
      if (f[1].equals("cohort-bgw-per-server-cpu")) {
        cpuRows++;
        // each server read and checked the submissions: its threads used some CPU, and less
        // than the whole wall time of the run on the machine's cores
        double ms = Double.parseDouble(f[3]);
        assertTrue(ms > 0 && ms < 60_000, line);
      }
    }
    assertEquals(4, cpuRows, String.join("\n", csv));
    assertEquals(2, connectedRows, String.join("\n", csv));
    assertEquals(2, floorRows, String.join("\n", csv));
    byte[] png = Files.readAllBytes(dir.resolve("clients.png"));
    assertTrue(png.length > 1000 && png[1] == 'P', "clients.png");
  }
}
