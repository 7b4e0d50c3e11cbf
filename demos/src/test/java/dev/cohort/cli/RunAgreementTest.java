package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parties of the distance-average demo, each started on its own (here: threads of one JVM, each
 * with its own command line, over loopback), that were given different settings: every party fails
 * at once with exit code 2, naming the setting and both values.
 */
class RunAgreementTest {

  @TempDir Path dir;

  private Path partiesFile(int n) throws IOException {
    StringBuilder text = new StringBuilder("# id host port\n");
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int p = 0; p < n; p++) {
        ServerSocket socket = new ServerSocket(0);
        sockets.add(socket);
        text.append(p).append(" 127.0.0.1 ").append(socket.getLocalPort()).append('\n');
      }
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
    Path file = dir.resolve("parties.txt");
    Files.writeString(file, text);
    return file;
  }

  /** Runs party p with the common arguments plus its own; returns each party's run. */
  private List<Cli.Run> runParties(Path parties, String[][] own) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(own.length);
    try {
      List<Future<Cli.Run>> runs = new ArrayList<>();
      for (int p = 0; p < own.length; p++) {
        List<String> args =
            new ArrayList<>(
                List.of(
                    "demo",
                    "distance-average",
                    "--party",
                    String.valueOf(p),
                    "--parties",
                    parties.toString(),
                    "--insecure-plaintext",
                    "--no-progress"));
        args.addAll(List.of(own[p]));
        runs.add(pool.submit(() -> Cli.cohort(args.toArray(String[]::new))));
      }
      List<Cli.Run> done = new ArrayList<>();
      for (Future<Cli.Run> run : runs) {
        done.add(run.get(90, TimeUnit.SECONDS));
      }
      return done;
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void deviceWithMoreSessions_everyPartyExits2NamingBothValues() throws Exception {
    String[] base = {"--sessions", "10"};
    List<Cli.Run> runs =
        runParties(partiesFile(3), new String[][] {base, base, {"--sessions", "12"}});

    for (int p = 0; p < 3; p++) {
      Cli.Run run = runs.get(p);
      assertEquals(ExitCode.CONFIGURATION, run.exitCode(), "P" + p + ": " + run.all());
      assertEquals(1, run.err().strip().lines().count(), run.all());
    }
    assertTrue(runs.get(0).err().contains("P2 has --sessions 12, P0 has 10"), runs.get(0).all());
    assertTrue(
        runs.get(2).err().matches("(?s).*P[01] has --sessions 10, P2 has 12.*"), runs.get(2).all());
  }

  @Test
  void differentParallelismAndSeed_namedTogether() throws Exception {
    String[] server = {"--sessions", "4", "--parallelism", "2", "--seed", "3"};
    List<Cli.Run> runs =
        runParties(
            partiesFile(3),
            new String[][] {
              server, {"--sessions", "4", "--parallelism", "1", "--seed", "4"}, server
            });

    Cli.Run device = runs.get(1);
    assertEquals(ExitCode.CONFIGURATION, device.exitCode(), device.all());
    assertTrue(device.err().matches("(?s).*P[02] has --parallelism 2, P1 has 1; .*"), device.all());
    assertTrue(
        device
            .err()
            .matches("(?s).*has traces generated with --seed 3, P1 has generated with --seed 4.*"),
        device.all());
  }

  @Test
  void sameSettings_run() throws Exception {
    String[] same = {"--sessions", "4", "--parallelism", "2"};
    List<Cli.Run> runs = runParties(partiesFile(3), new String[][] {same, same, same});

    for (Cli.Run run : runs) {
      assertEquals(0, run.exitCode(), run.all());
    }
    assertEquals(Cli.plaintextSum(Traces.generate(1, 2, 4), 4), Cli.runningSum(runs.get(0).out()));
  }

  private static Cli.Run runAsP1(Path partiesFile) {
    return Cli.cohort(
        "demo",
        "distance-average",
        "--party",
        "1",
        "--parties",
        partiesFile.toString(),
        "--insecure-plaintext");
  }

  @Test
  void partiesFile_twoPartiesOnOneAddress_refusedExit2() throws Exception {
    Path file = dir.resolve("same.txt");
    Files.writeString(file, "0 127.0.0.1 7000\n1 127.0.0.1 7001\n2 127.0.0.1 7000\n");

    Cli.Run run = runAsP1(file);

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals(
        "cohort: parties file "
            + file
            + " gives P0 and P2 the same address 127.0.0.1:7000: every party needs its own port",
        run.err().strip());
  }

  @Test
  void partiesFile_ownHostUnresolvable_refusedExit2() throws Exception {
    Path file = dir.resolve("nowhere.txt");
    Files.writeString(file, "0 127.0.0.1 7000\n1 no-such-host.invalid 7001\n2 127.0.0.1 7002\n");

    Cli.Run run = runAsP1(file);

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertTrue(
        run.err().contains("this party's host no-such-host.invalid (P1) does not resolve"),
        run.all());
  }
}
