package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort bench load} against three {@code cohort server} processes: every client's value
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

  private final List<Process> servers = new ArrayList<>();

  @AfterEach
  void stopServers() {
    for (Process p : servers) {
      p.destroyForcibly();
    }
  }

  private Path deployment(int clients) throws IOException {
    return ServerProcesses.deployment(dir, clients);
  }

  /** Starts server {@code p} as a process of its own; it runs until the test destroys it. */
  private void server(int p, Path parties) throws IOException {
    servers.add(
        new ProcessBuilder(
                Cli.processCommand(
                    List.of(
                        "server",
                        "--party",
                        Integer.toString(p),
                        "--parties",
                        parties.toString(),
                        "--bits",
                        "8",
                        "--close-after",
                        "4",
                        "--deadline-ms",
                        "60000")))
            .redirectErrorStream(true)
            .redirectOutput(log(p).toFile())
            .start());
  }

  private Path log(int p) {
    return dir.resolve("server-" + p + ".log");
  }

  /**
   * Server {@code p}'s lines of sessions 1 and 2 (contributors, received, sums), once both came.
   */
  private long[][] twoSessions(int p) throws Exception {
    String log = ServerProcesses.awaitLog(log(p), text -> sessions(text).size() >= 2);
    return sessions(log).toArray(new long[0][]);
  }

  private static List<long[]> sessions(String log) {
    Matcher m = SERVER_SESSION.matcher(log);
    List<long[]> sessions = new ArrayList<>();
    while (m.find()) {
      sessions.add(
          new long[] {
            Long.parseLong(m.group(1)),
            Long.parseLong(m.group(2)),
            Long.parseLong(m.group(3)),
            Long.parseLong(m.group(4))
          });
    }
    return sessions;
  }

  @Test
  void load_fourClientsTwoSessions_everyValueCountedAndSummedByTheServers() throws Exception {
    Path parties = deployment(6);
    for (int p = 0; p < 3; p++) {
      server(p, parties);
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
    for (int p = 0; p < 3; p++) {
      long[][] sessions = twoSessions(p);
      for (int s = 1; s <= 2; s++) {
        String where = "server " + p + ", session " + s;
        assertEquals(s, sessions[s - 1][0], where);
        assertEquals(4, sessions[s - 1][1], where + ": contributors");
        assertEquals(4, sessions[s - 1][2], where + ": received");
        assertEquals(sums[s - 1], sessions[s - 1][3], where + ": sum");
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
