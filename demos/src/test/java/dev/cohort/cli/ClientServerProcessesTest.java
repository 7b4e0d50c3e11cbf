package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
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
 * {@code cohort server} as three OS processes and {@code cohort client}s: a session counts the
 * clients' values; a server killed with -9 in the next session makes the other servers and the
 * waiting client fail naming it; restarted from their state, the servers run that session again and
 * the running sum counts every finished session once.
 */
class ClientServerProcessesTest {

  private static final Pattern SESSION =
      Pattern.compile(
          "session (\\d+): (\\d+) contributors .*?; sums \\[(-?\\d+)\\]; running sums"
              + " \\[(-?\\d+)\\]");

  @TempDir Path dir;

  private Path parties;
  private final List<Process> processes = new ArrayList<>();

  @AfterEach
  void stopAll() {
    for (Process p : processes) {
      p.destroyForcibly();
    }
  }

  private void setUp() throws IOException {
    parties = ServerProcesses.deployment(dir, 4);
  }

  private Process server(int p, String run) throws IOException {
    Process process =
        new ProcessBuilder(
                Cli.processCommand(
                    List.of(
                        "server",
                        "--party",
                        Integer.toString(p),
                        "--parties",
                        parties.toString(),
                        "--bits",
                        "16",
                        "--close-after",
                        "3",
                        "--deadline-ms",
                        "4000",
                        "--state",
                        dir.resolve("state-" + p).toString())))
            .redirectErrorStream(true)
            .redirectOutput(log(p, run).toFile())
            .start();
    processes.add(process);
    return process;
  }

  private Path log(int p, String run) {
    return dir.resolve(run + "-server-" + p + ".log");
  }

  private CompletableFuture<Cli.Run> client(int id, long value) {
    return CompletableFuture.supplyAsync(
        () ->
            Cli.cohort(
                "client",
                "--parties",
                parties.toString(),
                "--id",
                Integer.toString(id),
                "--value",
                Long.toString(value),
                "--timeout-ms",
                "60000"));
  }

  /** Waits until the server's log reports session {@code session}; returns its numbers. */
  private long[] awaitSession(int p, String run, long session) throws Exception {
    String log = ServerProcesses.awaitLog(log(p, run), text -> session(text, session) != null);
    return session(log, session);
  }

  /** The numbers of session {@code session} in {@code log}, or null while it has none. */
  private static long[] session(String log, long session) {
    Matcher m = SESSION.matcher(log);
    while (m.find()) {
      if (Long.parseLong(m.group(1)) == session) {
        return new long[] {
          Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))
        };
      }
    }
    return null;
  }

  @Test
  void serverKilledMidSession_othersFailNamingIt_restartCountsEverySessionOnce() throws Exception {
    setUp();
    for (int p = 0; p < 3; p++) {
      server(p, "first");
    }
    List<CompletableFuture<Cli.Run>> first = List.of(client(0, 100), client(1, -30), client(2, 7));
    for (CompletableFuture<Cli.Run> c : first) {
      Cli.Run r = c.get(90, TimeUnit.SECONDS);
      assertEquals(0, r.exitCode(), r.all());
      assertTrue(r.out().contains("session 1: counted (3 contributors)"), r.all());
    }
    for (int p = 0; p < 3; p++) {
      long[] s1 = awaitSession(p, "first", 1);
      assertEquals(3, s1[0]);
      assertEquals(77, s1[1]);
      assertEquals(77, s1[2]);
    }
    // session 2: one client submitted, then P2 dies
    CompletableFuture<Cli.Run> waiting = client(3, 5);
    Thread.sleep(1000);
    processes.get(2).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    for (int p = 0; p < 2; p++) {
      Process survivor = processes.get(p);
      assertTrue(survivor.waitFor(60, TimeUnit.SECONDS), "P" + p + " did not end");
      assertEquals(ExitCode.PEER, survivor.exitValue(), Files.readString(log(p, "first")));
      assertTrue(
          Files.readString(log(p, "first")).matches("(?s).*cohort: .*P2.*"),
          Files.readString(log(p, "first")));
    }
    Cli.Run lost = waiting.get(60, TimeUnit.SECONDS);
    assertEquals(ExitCode.PEER, lost.exitCode(), lost.all());
    assertTrue(lost.err().contains("server 2"), lost.all());
    // all three restart from their state: session 2 runs again, session 1 is not counted twice
    for (int p = 0; p < 3; p++) {
      server(p, "second");
    }
    List<CompletableFuture<Cli.Run>> second = List.of(client(0, 1), client(1, 2), client(3, 5));
    for (CompletableFuture<Cli.Run> c : second) {
      Cli.Run r = c.get(90, TimeUnit.SECONDS);
      assertEquals(0, r.exitCode(), r.all());
      assertTrue(r.out().contains("session 2: counted (3 contributors)"), r.all());
    }
    for (int p = 0; p < 3; p++) {
      long[] s2 = awaitSession(p, "second", 2);
      assertEquals(3, s2[0]);
      assertEquals(8, s2[1]);
      assertEquals(85, s2[2]);
    }
  }
}
