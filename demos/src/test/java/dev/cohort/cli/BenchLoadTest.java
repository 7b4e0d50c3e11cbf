package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort bench load} against three {@code cohort server}s in this JVM: every client's value
 * counts in every session, and the servers' sums are those of the values the load generator sent;
 * and its mistakes in the configuration are one-line errors.
 */
class BenchLoadTest {

  private static final Pattern SERVER_SESSION =
      Pattern.compile(
          "session (\\d+): (\\d+) contributors \\((\\d+) received\\); sums \\[(-?\\d+)\\]");

  private static final Pattern LOAD_SESSION =
      Pattern.compile(
          "session (\\d+): 4 contributors; 4 clients sent in [0-9.]+ s, outcome after [0-9.]+ s;"
              + " 4 of 4 sampled clients counted; the values sent sum to (-?\\d+)\n");

  @TempDir Path dir;

  /** Keys for 3 parties and {@code clients} clients, and a parties file with free ports. */
  private Path deployment(int clients) throws IOException {
    Cli.Run keys =
        Cli.cohort(
            "keys",
            "--parties",
            "3",
            "--clients",
            Integer.toString(clients),
            "--out",
            dir.resolve("keys").toString());
    assertEquals(0, keys.exitCode(), keys.all());
    StringBuilder file = new StringBuilder("keys keys\n");
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int p = 0; p < 3; p++) {
        ServerSocket mesh = new ServerSocket(0);
        ServerSocket link = new ServerSocket(0);
        sockets.add(mesh);
        sockets.add(link);
        file.append(p)
            .append(" 127.0.0.1 ")
            .append(mesh.getLocalPort())
            .append(' ')
            .append(link.getLocalPort())
            .append('\n');
      }
    } finally {
      for (ServerSocket s : sockets) {
        s.close();
      }
    }
    Path parties = dir.resolve("parties.txt");
    Files.writeString(parties, file);
    return parties;
  }

  @Test
  void load_fourClientsTwoSessions_everyValueCountedAndSummedByTheServers() throws Exception {
    Path parties = deployment(6);
    List<CompletableFuture<Cli.Run>> servers = new ArrayList<>();
    for (int p = 0; p < 3; p++) {
      String party = Integer.toString(p);
      servers.add(
          CompletableFuture.supplyAsync(
              () ->
                  Cli.cohort(
                      "server",
                      "--party",
                      party,
                      "--parties",
                      parties.toString(),
                      "--bits",
                      "8",
                      "--close-after",
                      "4",
                      "--deadline-ms",
                      "60000",
                      "--sessions",
                      "2")));
    }
    // started with the servers: the first client waits for them to listen
    Cli.Run load =
        Cli.cohort(
            "bench",
            "load",
            "--parties",
            parties.toString(),
            "--clients",
            "4",
            "--first-id",
            "2",
            "--sessions",
            "2",
            "--value-bits",
            "8",
            "--sample",
            "0");

    assertEquals(0, load.exitCode(), load.all());
    assertTrue(load.out().contains("connecting 4 clients (ids 2..5) to 3 servers"), load.all());
    assertTrue(load.out().contains("connected 4 clients (12 TLS connections)"), load.all());
    Matcher sent = LOAD_SESSION.matcher(load.out());
    long[] sums = new long[2];
    for (int s = 1; s <= 2; s++) {
      assertTrue(sent.find(), load.all());
      assertEquals(s, Integer.parseInt(sent.group(1)), load.all());
      sums[s - 1] = Long.parseLong(sent.group(2));
    }
    for (CompletableFuture<Cli.Run> f : servers) {
      Cli.Run server = f.get(120, TimeUnit.SECONDS);
      assertEquals(0, server.exitCode(), server.all());
      Matcher m = SERVER_SESSION.matcher(server.out());
      for (int s = 1; s <= 2; s++) {
        assertTrue(m.find(), server.all());
        assertEquals(s, Integer.parseInt(m.group(1)), server.all());
        assertEquals(4, Integer.parseInt(m.group(2)), server.all());
        assertEquals(4, Integer.parseInt(m.group(3)), server.all());
        assertEquals(sums[s - 1], Long.parseLong(m.group(4)), server.all());
      }
    }
  }

  @Test
  void load_moreClientsThanKeys_failsNamingTheKeysCommand() throws IOException {
    Path parties = deployment(2);

    Cli.Run run = Cli.cohort("bench", "load", "--parties", parties.toString(), "--clients", "3");

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals(
        "cohort: the keys directory "
            + dir.resolve("keys").toAbsolutePath()
            + " has no key for client 2: add client keys with 'cohort keys --clients 3 --out "
            + dir.resolve("keys").toAbsolutePath()
            + "'\n",
        run.err());
  }

  @Test
  void load_moreConnectionsThanFiles_failsSayingUlimit() throws IOException {
    assumeTrue(ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean);
    Path parties = deployment(1);

    Cli.Run run =
        Cli.cohort("bench", "load", "--parties", parties.toString(), "--clients", "2000000000");

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertTrue(
        run.err()
            .matches(
                "cohort: 2000000000 clients need 6000000000 connections, but this process may"
                    + " open only \\d+ files \\(ulimit -n\\): raise the limit, or split the"
                    + " clients over several processes with --first-id\n"),
        run.all());
  }

  @Test
  void load_valueBitsZero_failsWithTheRange() throws IOException {
    Path parties = deployment(1);

    Cli.Run run =
        Cli.cohort(
            "bench",
            "load",
            "--parties",
            parties.toString(),
            "--clients",
            "1",
            "--value-bits",
            "0");

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals("cohort: --value-bits (0) must be between 1 and 62\n", run.err());
  }
}
