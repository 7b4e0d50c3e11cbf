package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SPDZ end to end with no dealer: the three servers make their material among themselves ({@code
 * cohort preprocess --party I}), run as {@code cohort server --suite spdz} processes on it, and
 * count the values of {@code cohort client}s.
 */
class SpdzServerOfflineTest {

  private static final Pattern SESSION =
      Pattern.compile("session 1: (\\d+) contributors .*?; sums \\[(-?\\d+)\\]");

  @TempDir Path dir;

  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopAll() {
    for (Process p : processes) {
      p.destroyForcibly();
    }
  }

  @Test
  void spdzServers_onOfflinePhaseMaterial_sumTheClientsValues() throws Exception {
    Path parties = ServerProcesses.deployment(dir, 3);
    Path material = dir.resolve("spdz");
    List<CompletableFuture<Cli.Run>> preprocess = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      String id = String.valueOf(p);
      preprocess.add(
          CompletableFuture.supplyAsync(
              () ->
                  Cli.cohort(
                      "preprocess",
                      "--party",
                      id,
                      "--parties",
                      parties.toString(),
                      "--field",
                      "m127",
                      "--triples",
                      "400",
                      "--random",
                      "40",
                      "--bits",
                      "100",
                      "--inputs",
                      "40",
                      "--input-bits",
                      "200",
                      "--out",
                      material.resolve("P" + id).toString())));
    }
    for (CompletableFuture<Cli.Run> f : preprocess) {
      Cli.Run r = f.get(120, TimeUnit.SECONDS);
      assertEquals(0, r.exitCode(), r.all());
    }
    for (int p = 0; p < 3; p++) {
      processes.add(
          new ProcessBuilder(
                  Cli.processCommand(
                      List.of(
                          "server",
                          "--suite",
                          "spdz",
                          "--field",
                          "m127",
                          "--preprocessing",
                          material.resolve("P" + p).toString(),
                          "--party",
                          Integer.toString(p),
                          "--parties",
                          parties.toString(),
                          "--bits",
                          "16",
                          "--close-after",
                          "3",
                          "--deadline-ms",
                          "30000",
                          "--sessions",
                          "1")))
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("server-" + p + ".log").toFile())
              .start());
    }
    long[] values = {1234, -567, 89};
    List<CompletableFuture<Cli.Run>> clients = new ArrayList<>();
    for (int j = 0; j < values.length; j++) {
      String id = String.valueOf(j);
      String value = String.valueOf(values[j]);
      clients.add(
          CompletableFuture.supplyAsync(
              () ->
                  Cli.cohort(
                      "client",
                      "--parties",
                      parties.toString(),
                      "--id",
                      id,
                      "--value",
                      value,
                      "--timeout-ms",
                      "60000")));
    }
    for (CompletableFuture<Cli.Run> c : clients) {
      Cli.Run r = c.get(90, TimeUnit.SECONDS);
      assertEquals(0, r.exitCode(), r.all());
      assertTrue(r.out().contains("counted (3 contributors)"), r.all());
    }
    for (int p = 0; p < 3; p++) {
      String log =
          ServerProcesses.awaitLog(
              dir.resolve("server-" + p + ".log"), text -> SESSION.matcher(text).find());
      Matcher m = SESSION.matcher(log);
      assertTrue(m.find(), log);
      assertEquals(3, Long.parseLong(m.group(1)), log);
      assertEquals(1234 - 567 + 89, Long.parseLong(m.group(2)), log);
      assertTrue(log.contains("SPDZ, serving input clients"), log);
    }
  }
}
