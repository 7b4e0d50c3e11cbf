package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort demo distance-average --party I --parties FILE --suite spdz --offline-phase}: every
 * party is its own OS process, and the parties make their SPDZ material in the background over a
 * second TLS mesh of their own (the offline ports of the parties file, the same certificates) while
 * the demo runs. The server's sum matches the plaintext of the traces, and every party reports how
 * long its online phase waited for material; a misconfigured offline port is refused at once.
 */
class OfflinePhasePartiesTest {

  private static final int PARTIES = 3;
  private static final int SESSIONS = 2;
  private static final long SEED = 21;
  private static final Pattern WAITED =
      Pattern.compile(
          "offline phase: +MASCOT in the background over its own mesh at the offline ports of"
              + " \\S+, \\d+ triples made; the online phase waited (\\d+\\.\\d) ms \\(P(\\d)\\)");

  @TempDir Path dir;

  @Test
  void threeProcesses_offlinePhaseOverTls_sumMatchesPlaintextAndEachPartyReportsItsWait()
      throws Exception {
    Cli.Run keys =
        Cli.cohort(
            "keys", "--parties", String.valueOf(PARTIES), "--out", dir.resolve("keys").toString());
    assertEquals(0, keys.exitCode(), keys.all());
    Path parties = partiesFile(Cli.freePorts(2 * PARTIES), true);

    List<Process> processes = new ArrayList<>();
    try {
      for (int p = 0; p < PARTIES; p++) {
        processes.add(start(p, parties));
      }
      for (Process process : processes) {
        assertTrue(process.waitFor(80, TimeUnit.SECONDS), "a party did not finish in time");
      }
      for (int p = 0; p < PARTIES; p++) {
        String out = output(p);
        assertEquals(0, processes.get(p).exitValue(), "P" + p + ":\n" + out);
        assertTrue(out.contains("TLS 1.3 with mutual authentication"), out);
        Matcher waited = WAITED.matcher(out);
        assertTrue(waited.find(), "P" + p + " reports no wait:\n" + out);
        assertEquals(String.valueOf(p), waited.group(2), out);
      }
      long expected = Cli.plaintextSum(Traces.generate(SEED, PARTIES - 1, SESSIONS), SESSIONS);
      assertEquals(expected, Cli.runningSum(output(0)), output(0));
      assertEquals(SESSIONS, Cli.lastSession(output(0)), output(0));
    } finally {
      for (Process process : processes) {
        process.destroyForcibly();
      }
    }
  }

  @Test
  void deviceKilled_theOthersExit3WithOneLineNamingIt() throws Exception {
    Cli.Run keys =
        Cli.cohort(
            "keys", "--parties", String.valueOf(PARTIES), "--out", dir.resolve("keys").toString());
    assertEquals(0, keys.exitCode(), keys.all());
    Path parties = partiesFile(Cli.freePorts(2 * PARTIES), true);

    List<Process> processes = new ArrayList<>();
    try {
      for (int p = 0; p < PARTIES; p++) {
        processes.add(start(p, parties, 1000, "--each-session"));
      }
      awaitLine(0, "session 1: ", processes.get(0));
      processes.get(2).destroyForcibly();
      for (int p = 0; p < 2; p++) {
        assertTrue(processes.get(p).waitFor(40, TimeUnit.SECONDS), "P" + p + " did not end");
        String out = output(p);
        assertEquals(ExitCode.PEER, processes.get(p).exitValue(), out);
        List<String> errors = out.lines().filter(l -> l.startsWith("cohort: ")).toList();
        assertEquals(1, errors.size(), out);
        assertTrue(errors.get(0).contains("P2"), out);
      }
    } finally {
      for (Process process : processes) {
        process.destroyForcibly();
      }
    }
  }

  /** Waits until {@code party}'s output holds {@code text}, failing if it ends first. */
  private void awaitLine(int party, String text, Process process) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!output(party).contains(text)) {
      assertTrue(process.isAlive(), "P" + party + " ended:\n" + output(party));
      assertTrue(System.nanoTime() < deadline, "P" + party + " printed no '" + text + "'");
      Thread.sleep(50);
    }
  }

  @Test
  void offlinePortTaken_refusedExit2NamingThePortAndTheFix() throws Exception {
    int[] ports = Cli.freePorts(2 * PARTIES);
    Path parties = partiesFile(ports, true);
    int offlinePort = ports[PARTIES + 1];
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), offlinePort));

      Cli.Run run = runAsP1(parties);

      assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
      assertEquals(1, run.err().strip().lines().count(), run.all());
      String err = run.err().strip();
      assertTrue(
          err.startsWith(
              "cohort: the offline phase: P1 cannot listen on 127.0.0.1:" + offlinePort + ": "),
          err);
      assertTrue(err.endsWith("; give P1 a free offline port ('offline=PORT') in " + parties), err);
    }
  }

  @Test
  void partiesFileWithoutOfflinePorts_refusedExit2NamingTheField() throws Exception {
    Path parties = partiesFile(Cli.freePorts(2 * PARTIES), false);

    Cli.Run run = runAsP1(parties);

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals(
        "cohort: parties file "
            + parties
            + " gives P0 no offline port, which --offline-phase with --party needs: end its line"
            + " with 'offline=PORT' (a port of its own for the offline phase's mesh)",
        run.err().strip());
  }

  @Test
  void partiesFile_offlinePortOfAnotherParty_refusedExit2() throws Exception {
    Path parties = dir.resolve("clash.txt");
    Files.writeString(
        parties,
        "0 127.0.0.1 7000 offline=7001\n1 127.0.0.1 7001 offline=7101\n2 127.0.0.1 7002\n");

    Cli.Run run = runAsP1(parties);

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals(
        "cohort: parties file "
            + parties
            + " gives the offline port of P0 (127.0.0.1:7001) to P1 as well: every party needs"
            + " ports of its own",
        run.err().strip());
  }

  @Test
  void partiesFile_offlinePortNotANumber_refusedExit2NamingTheLine() throws Exception {
    Path parties = dir.resolve("typo.txt");
    Files.writeString(
        parties,
        "0 127.0.0.1 7000 offline=7100\n1 127.0.0.1 7001 offline=71O1\n2 127.0.0.1 7002\n");

    Cli.Run run = runAsP1(parties);

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals(
        "cohort: parties file "
            + parties
            + " line 2: expected 'offline=PORT' with PORT in [1, 65535], got offline=71O1",
        run.err().strip());
  }

  private Cli.Run runAsP1(Path parties) {
    return Cli.cohort(
        "demo",
        "distance-average",
        "--suite",
        "spdz",
        "--offline-phase",
        "--party",
        "1",
        "--parties",
        parties.toString(),
        "--insecure-plaintext",
        "--no-progress");
  }

  private Process start(int party, Path parties) throws IOException {
    return start(party, parties, SESSIONS);
  }

  private Process start(int party, Path parties, int sessions, String... more) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "demo",
                "distance-average",
                "--suite",
                "spdz",
                "--offline-phase",
                "--party",
                Integer.toString(party),
                "--parties",
                parties.toString(),
                "--sessions",
                Integer.toString(sessions),
                "--seed",
                Long.toString(SEED),
                "--no-progress"));
    args.addAll(List.of(more));
    return new ProcessBuilder(Cli.processCommand(args))
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("P" + party + ".log").toFile())
        .start();
  }

  private String output(int party) throws IOException {
    return Files.readString(dir.resolve("P" + party + ".log"));
  }

  /** The parties file: the first PARTIES ports for the online mesh, the rest offline ports. */
  private Path partiesFile(int[] ports, boolean offline) throws IOException {
    StringBuilder file = new StringBuilder("# id host port offline=PORT\nkeys keys\n");
    for (int p = 0; p < PARTIES; p++) {
      file.append(p).append(" 127.0.0.1 ").append(ports[p]);
      if (offline) {
        file.append(" offline=").append(ports[PARTIES + p]);
      }
      file.append('\n');
    }
    Path parties = dir.resolve("parties.txt");
    Files.writeString(parties, file);
    return parties;
  }
}
