package dev.cohort.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three parties of the distance-average demo as three OS processes over TLS on loopback, on each
 * transport.
 */
class MultiProcessTest {

  private static final int SESSIONS = 5;
  private static final long SEED = 7;

  @TempDir Path dir;

  @ParameterizedTest(name = "--transport {0}")
  @ValueSource(strings = {"netty", "socket"})
  void threeProcesses_tls_serverSumEqualsPlaintextOfTraces(String transport) throws Exception {
    Cli.Run keys = Cli.cohort("keys", "--parties", "3", "--out", dir.resolve("keys").toString());
    assertEquals(0, keys.exitCode(), keys.all());
    Path parties = dir.resolve("parties.txt");
    StringBuilder file = new StringBuilder("# id host port\nkeys keys\n");
    int[] ports = Cli.freePorts(3);
    for (int p = 0; p < 3; p++) {
      file.append(p).append(" 127.0.0.1 ").append(ports[p]).append('\n');
    }
    Files.writeString(parties, file);

    List<Process> processes = new ArrayList<>();
    try {
      for (int p = 2; p >= 0; p--) { // any order: the server starts last
        processes.add(0, start(p, parties, transport));
      }
      for (Process process : processes) {
        assertTrue(process.waitFor(80, TimeUnit.SECONDS), "a party did not finish in time");
      }
      for (int p = 0; p < 3; p++) {
        assertEquals(0, processes.get(p).exitValue(), "P" + p + ":\n" + output(p));
      }
      String server = output(0);
      long expected = Cli.plaintextSum(Traces.generate(SEED, 2, SESSIONS), SESSIONS);
      assertEquals(expected, Cli.runningSum(server), server);
      assertTrue(server.contains("this process runs P0"), server);
      assertTrue(
          server.contains(transport.equals("socket") ? "blocking sockets, " : "Netty, "), server);
      assertTrue(server.contains("TLS 1.3 with mutual authentication"), server);
      assertTrue(!output(1).contains("running sum"), "a device must not print a sum");
    } finally {
      for (Process process : processes) {
        process.destroyForcibly();
      }
    }
  }

  private Process start(int party, Path parties, String transport) throws IOException {
    List<String> command =
        new ArrayList<>(
            Cli.processCommand(
                List.of(
                    "demo",
                    "distance-average",
                    "--party",
                    Integer.toString(party),
                    "--parties",
                    parties.toString(),
                    "--sessions",
                    Integer.toString(SESSIONS),
                    "--seed",
                    Long.toString(SEED),
                    "--transport",
                    transport,
                    "--no-progress")));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve("P" + party + ".log").toFile())
        .start();
  }

  private String output(int party) throws IOException {
    return Files.readString(dir.resolve("P" + party + ".log"));
  }
}
