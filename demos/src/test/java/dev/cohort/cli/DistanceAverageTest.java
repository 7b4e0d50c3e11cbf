package dev.cohort.cli;

import static dev.cohort.cli.Cli.cohort;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort demo distance-average} in-process: all parties as threads over loopback, Netty or
 * (--transport socket) blocking sockets.
 */
class DistanceAverageTest {

  @TempDir Path dir;

  @Test
  void bgw_threeParties_serverSumEqualsPlaintextOfTraces() {
    Cli.Run run =
        cohort("demo", "distance-average", "--sessions", "6", "--seed", "5", "--parallelism", "2");

    assertEquals(0, run.exitCode(), run.all());
    long expected = Cli.plaintextSum(Traces.generate(5, 2, 6), 6);
    assertEquals(expected, Cli.runningSum(run.out()), run.all());
    assertEquals(6, Cli.lastSession(run.out()));
    assertTrue(run.out().contains("suite:            bgw(m61)"), run.out());
    // The report names the TLS implementation: BoringSSL here (tcnative ships for this platform).
    assertTrue(
        run.out().contains("TLS 1.3 with mutual authentication (BoringSSL)")
            || run.out().contains("TLS 1.3 with mutual authentication (JDK)"),
        run.out());
    assertTrue(run.out().contains("session 6: running sum " + expected + " m"), run.out());
    assertTrue(run.out().contains("(match)"), run.out());
    for (String cost :
        new String[] {"wall time:", "time per session:", "rounds:", "CPU time:", "peak heap:"}) {
      assertTrue(run.out().contains(cost), cost + " missing:\n" + run.out());
    }
    assertTrue(run.out().contains("  P2 "), run.out());
  }

  @Test
  void threads_twoPerParty_sameSumAndNamedInTheReport() {
    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--devices",
            "2",
            "--sessions",
            "3",
            "--seed",
            "4",
            "--threads",
            "2",
            "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertEquals(Cli.plaintextSum(Traces.generate(4, 2, 3), 3), Cli.runningSum(run.out()));
    assertTrue(
        run.out().contains("suite:            spdz(m127, insecure dealer, threads=2)"), run.out());
  }

  @Test
  void threads_zero_refusedWithTheRange() {
    Cli.Run run = cohort("demo", "distance-average", "--sessions", "1", "--threads", "0");

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertTrue(run.err().contains("threads (0) must be in [1, 256]"), run.all());
  }

  @Test
  void spdz_fourParties_serverSumEqualsPlaintextOfTraces() {
    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--devices",
            "3",
            "--sessions",
            "5",
            "--seed",
            "9",
            "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertEquals(Cli.plaintextSum(Traces.generate(9, 3, 5), 5), Cli.runningSum(run.out()));
    assertTrue(run.out().contains("suite:            spdz(m127, insecure dealer)"), run.out());
  }

  @Test
  void spdz_dealerFiles_serverSumEqualsPlaintext() {
    Path files = dir.resolve("spdz");
    // 4 sessions of 1 device, parallelism 1, a 62-bit running sum (m127): see Material
    DistanceAverageParty.Material need = DistanceAverageParty.Material.of(4, 1, 62);
    Cli.Run dealt =
        deal(
            files, 2, need.serverMasks(), Math.max(need.serverInputBits(), need.deviceInputBits()));
    assertEquals(0, dealt.exitCode(), dealt.all());

    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--suite",
            "spdz",
            "--devices",
            "1",
            "--sessions",
            "4",
            "--preprocessing",
            files.toString(),
            "--insecure-plaintext",
            "--json");

    assertEquals(0, run.exitCode(), run.all());
    long expected = Cli.plaintextSum(Traces.generate(1, 1, 4), 4);
    assertTrue(run.out().strip().startsWith("{"), run.out());
    assertTrue(run.out().contains("\"running_sum\":" + expected), run.out());
    assertTrue(run.out().contains("\"bytes_sent\":["), run.out());
    assertEquals(1, run.out().strip().lines().count(), run.out());
  }

  private static Cli.Run deal(Path files, int parties, long masks, long inputBits) {
    return cohort(
        "preprocess",
        "--parties",
        String.valueOf(parties),
        "--inputs",
        String.valueOf(masks),
        "--input-bits",
        String.valueOf(inputBits),
        "--out",
        files.toString());
  }

  /** The documented material is exact: all of it is used, and one item less runs out. */
  @Test
  void spdz_dealerFiles_exactlyTheMaterialOfTheFormula_sufficeAndOneLessRunsOut() {
    DistanceAverageParty.Material need = DistanceAverageParty.Material.of(5, 2, 62);
    // Derived from the protocol: masks only for the 5 openings of the running sum to the server;
    // input bits of the server: 3 resume values of 32 bits and a 62-bit sum per batch (3 batches
    // of up to 2 sessions); of each device: one 32-bit distance per session. No triples are
    // dealt: the demo multiplies nothing, and inputs take none.
    assertEquals(5, need.serverMasks());
    assertEquals(2 * 32 + 3 * 62, need.serverInputBits());
    assertEquals(5 * 32, need.deviceInputBits());
    long bits = Math.max(need.serverInputBits(), need.deviceInputBits());
    long[][] amounts = {
      {need.serverMasks(), bits}, {need.serverMasks(), bits - 1}, {need.serverMasks() - 1, bits}
    };
    for (int i = 0; i < amounts.length; i++) {
      Path files = dir.resolve("spdz-" + i);
      assertEquals(0, deal(files, 3, amounts[i][0], amounts[i][1]).exitCode());
      Cli.Run run =
          cohort(
              "demo",
              "distance-average",
              "--suite",
              "spdz",
              "--devices",
              "2",
              "--sessions",
              "5",
              "--parallelism",
              "2",
              "--preprocessing",
              files.toString(),
              "--insecure-plaintext");
      if (i == 0) {
        assertEquals(0, run.exitCode(), run.all());
      } else {
        // Checked before the first session: one item less covers 4 of the 5 sessions.
        assertEquals(ExitCode.MATERIAL, run.exitCode(), run.all());
        assertTrue(run.err().contains("covers 4 of the 5 sessions of this run (1..5)"), run.all());
        assertTrue(
            run.err()
                .contains(
                    i == 1
                        ? "185 input bits of P0 (186 needed)"
                        : "4 input masks of P0 (5 needed)"),
            run.all());
        assertTrue(
            run.err().contains("'cohort preprocess --devices 2 --sessions 5 --parallelism 2"),
            run.all());
      }
    }
  }

  @Test
  void restart_fromCheckpoint_noSessionLostOrRepeated() throws IOException {
    Path checkpoint = dir.resolve("server.checkpoint");
    String[] common = {
      "demo",
      "distance-average",
      "--sessions",
      "9",
      "--seed",
      "4",
      "--parallelism",
      "2",
      "--insecure-plaintext",
      "--checkpoint",
      checkpoint.toString()
    };

    Cli.Run first = cohort(concat(common, "--stop-after", "4"));
    assertEquals(0, first.exitCode(), first.all());
    assertEquals(4, Cli.lastSession(first.out()));
    assertTrue(Files.readString(checkpoint).contains("lastSession=4"));

    Cli.Run second = cohort(common);
    assertEquals(0, second.exitCode(), second.all());
    assertTrue(second.out().contains("sessions:         5..9 of 9"), second.out());
    assertFalse(second.out().contains("session 4:"), second.out());
    assertEquals(9, Cli.lastSession(second.out()));
    assertEquals(Cli.plaintextSum(Traces.generate(4, 2, 9), 9), Cli.runningSum(second.out()));

    Cli.Run third = cohort(common);
    assertEquals(0, third.exitCode(), third.all());
    assertTrue(third.out().contains("none to run: session 9 of 9 has finished"), third.out());
    assertEquals(Cli.runningSum(second.out()), Cli.runningSum(third.out()));
  }

  @Test
  void traces_csv_serverSumEqualsPlaintext() throws IOException {
    Path csv = dir.resolve("traces.csv");
    Files.writeString(
        csv,
        "device,timestamp,latitude,longitude\n"
            + "bob,2024-05-01T10:00:00Z,52.0907,5.1214\n"
            + "alice,1714557600,52.3676,4.9041\n"
            + "alice,1714558500,52.3700,4.8950\n"
            + "bob,2024-05-01T10:15:00Z,52.0890,5.1100\n"
            + "alice,1714559400,52.3800,4.9000\n"
            + "bob,2024-05-01T10:32:00Z,52.0890,5.1100\n");

    Cli.Run run =
        cohort("demo", "distance-average", "--traces", csv.toString(), "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertEquals(Cli.plaintextSum(Traces.read(csv), 2), Cli.runningSum(run.out()));
    assertEquals(2, Cli.lastSession(run.out()));
  }

  @Test
  void traces_malformedLine_failsNamingTheLine() throws IOException {
    Path csv = dir.resolve("bad.csv");
    Files.writeString(
        csv,
        "device,timestamp,latitude,longitude\n"
            + "alice,1714557600,52.3676,4.9041\n"
            + "alice,1714558500,52.3700\n");

    Cli.Run run = cohort("demo", "distance-average", "--traces", csv.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertEquals("", run.out());
    assertEquals(1, run.err().strip().lines().count(), run.err());
    assertTrue(
        run.err()
            .contains(
                "bad.csv line 3: expected 4 fields (device,timestamp,latitude,longitude), got 3"),
        run.err());
  }

  @Test
  void traces_badLatitude_failsNamingTheLine() throws IOException {
    Path csv = dir.resolve("lat.csv");
    Files.writeString(csv, "alice,1714557600,52.3,4.9\nalice,1714558500,95.0,4.9\n");

    Cli.Run run = cohort("demo", "distance-average", "--traces", csv.toString());

    assertEquals(2, run.exitCode(), run.all());
    assertTrue(run.err().contains("lat.csv line 2: latitude 95.0 is outside [-90, 90]"), run.err());
  }

  @Test
  void socketTransport_bgwOverTls_serverSumEqualsPlaintextOfTraces() {
    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--transport",
            "socket",
            "--sessions",
            "5",
            "--seed",
            "11",
            "--parallelism",
            "2");

    assertEquals(0, run.exitCode(), run.all());
    assertEquals(Cli.plaintextSum(Traces.generate(11, 2, 5), 5), Cli.runningSum(run.out()));
    assertTrue(
        run.out().contains("blocking sockets over loopback, all parties in this JVM, TLS 1.3"),
        run.out());
    assertTrue(run.out().contains("TLS 1.3 with mutual authentication (JDK)"), run.out());
  }

  @Test
  void socketTransport_spdzPlaintext_serverSumEqualsPlaintextOfTraces() {
    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--transport",
            "SOCKET",
            "--suite",
            "spdz",
            "--sessions",
            "4",
            "--seed",
            "12",
            "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertEquals(Cli.plaintextSum(Traces.generate(12, 2, 4), 4), Cli.runningSum(run.out()));
    assertTrue(run.out().contains("blocking sockets over loopback"), run.out());
  }

  @Test
  void socketTransport_withEmulatedLatency_failsWithOneLine() {
    Cli.Run run = cohort("demo", "distance-average", "--transport", "socket", "--latency-ms", "5");

    assertEquals(2, run.exitCode(), run.all());
    assertEquals(
        "cohort: --latency-ms and --bandwidth-mbit need --transport netty (the socket transport"
            + " does not emulate links)",
        run.err().strip());
  }

  @Test
  void unknownTransport_failsWithOneLine() {
    Cli.Run run = cohort("demo", "distance-average", "--transport", "carrier-pigeon");

    assertEquals(2, run.exitCode(), run.all());
    assertEquals("cohort: transport carrier-pigeon: want netty or socket", run.err().strip());
  }

  @Test
  void bgw_oneDevice_failsNamingBgwMinimum() {
    Cli.Run run = cohort("demo", "distance-average", "--devices", "1");

    assertEquals(2, run.exitCode(), run.all());
    assertTrue(run.err().startsWith("cohort: BGW needs at least 3 parties, got 2"), run.err());
  }

  @Test
  void unknownSuite_failsWithOneLine() {
    Cli.Run run = cohort("demo", "distance-average", "--suite", "yao");

    assertEquals(2, run.exitCode(), run.all());
    assertEquals("cohort: suite 'yao' is not one of: bgw, spdz", run.err().strip());
  }

  @Test
  void emulatedLatency_fiveMs_eachSessionTakesAtLeastTwoLatencies() {
    Cli.Run run =
        cohort(
            "demo",
            "distance-average",
            "--sessions",
            "3",
            "--latency-ms",
            "5",
            "--insecure-plaintext");

    assertEquals(0, run.exitCode(), run.all());
    assertTrue(run.out().contains("emulated links: 5 ms latency, no bandwidth cap"), run.out());
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("time per session: +([0-9.]+) ms").matcher(run.out());
    assertTrue(m.find(), run.out());
    // two rounds per session (inputs, then the opening), each at least one latency
    assertTrue(Double.parseDouble(m.group(1)) >= 10.0, run.out());
  }

  @Test
  void negativeLatency_failsWithOneLine() {
    Cli.Run run = cohort("demo", "distance-average", "--latency-ms", "-1");

    assertEquals(2, run.exitCode(), run.all());
    assertEquals(
        "cohort: latency-ms (-1.0) and bandwidth-mbit (0.0) must be >= 0", run.err().strip());
  }

  @Test
  void help_listsTheMainOptions() {
    Cli.Run run = cohort("demo", "distance-average", "--help");

    assertEquals(0, run.exitCode());
    assertTrue(run.out().contains("--checkpoint"), run.out());
    assertTrue(run.out().contains("--parallelism"), run.out());
    assertTrue(run.out().contains("--latency-ms"), run.out());
  }

  @Test
  void generatedTraces_fixEvery15To20Minutes_realisticSpeeds() {
    Traces traces = Traces.generate(3, 4, 200);

    for (int d = 0; d < 4; d++) {
      for (int s = 1; s <= 200; s++) {
        long seconds = traces.fixes(d).get(s).timestamp() - traces.fixes(d).get(s - 1).timestamp();
        assertTrue(seconds >= 900 && seconds <= 1200, "interval " + seconds);
        double speed = traces.distance(d, s) / (double) seconds;
        assertTrue(speed >= 0 && speed < 25, "speed " + speed);
      }
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] all = new String[a.length + b.length];
    System.arraycopy(a, 0, all, 0, a.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  @Test
  void tooManyDevices_refusedBeforeTracesAreGenerated() {
    // 100000 devices' traces would take many seconds to generate: the suite's limit comes first.
    Cli.Run run = cohort("demo", "distance-average", "--devices", "100000", "--sessions", "1000");

    assertEquals(ExitCode.CONFIGURATION, run.exitCode(), run.all());
    assertEquals("cohort: parties (100001) must be <= 1000", run.err().strip());
  }
}
