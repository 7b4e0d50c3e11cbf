package dev.cohort.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Runs {@code cohort} in-process and captures what it printed; and the tests' own plaintext. */
final class Cli {

  /** What one in-process run of {@code cohort} printed and returned. */
  record Run(int exitCode, String out, String err) {
    String all() {
      return "exit " + exitCode + "\n--- out ---\n" + out + "--- err ---\n" + err;
    }
  }

  private Cli() {}

  /** Ports the OS hands out for port 0, released again for the parties to listen on. */
  static int[] freePorts(int n) throws java.io.IOException {
    int[] ports = new int[n];
    List<java.net.ServerSocket> sockets = new java.util.ArrayList<>();
    try {
      for (int i = 0; i < n; i++) {
        java.net.ServerSocket socket = new java.net.ServerSocket(0);
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
    } finally {
      for (java.net.ServerSocket socket : sockets) {
        socket.close();
      }
    }
    return ports;
  }

  static Run cohort(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = Cohort.commandLine();
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    int exitCode = commandLine.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }

  /**
   * The command that runs {@code cohort} with {@code args} in a JVM of its own (this test JVM's
   * java and class path, quick to start): for parties as separate processes.
   */
  static List<String> processCommand(List<String> args) {
    List<String> command = new java.util.ArrayList<>();
    command.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Cohort.class.getName());
    command.addAll(args);
    return command;
  }

  private static final Pattern RUNNING_SUM =
      Pattern.compile("running sum: +(-?\\d+) m after session (\\d+)");

  /** The server's final running sum as the report prints it. */
  static long runningSum(String out) {
    Matcher m = RUNNING_SUM.matcher(out);
    if (!m.find()) {
      throw new AssertionError("no running sum in:\n" + out);
    }
    return Long.parseLong(m.group(1));
  }

  /** The last finished session as the report prints it. */
  static long lastSession(String out) {
    Matcher m = RUNNING_SUM.matcher(out);
    if (!m.find()) {
      throw new AssertionError("no running sum in:\n" + out);
    }
    return Long.parseLong(m.group(2));
  }

  /**
   * The plaintext sum of sessions 1..{@code sessions}, computed here from the fixes alone: the
   * haversine formula written again, so that a bug in the demo's own formula shows.
   */
  static long plaintextSum(Traces traces, int sessions) {
    long sum = 0;
    for (int d = 0; d < traces.devices(); d++) {
      List<Traces.Fix> fixes = traces.fixes(d);
      for (int s = 1; s <= sessions && s < fixes.size(); s++) {
        sum += Math.round(haversine(fixes.get(s - 1), fixes.get(s)));
      }
    }
    return sum;
  }

  private static double haversine(Traces.Fix a, Traces.Fix b) {
    double r = 6_371_008.8;
    double lat1 = a.latitude() * Math.PI / 180;
    double lat2 = b.latitude() * Math.PI / 180;
    double dLat = lat2 - lat1;
    double dLon = (b.longitude() - a.longitude()) * Math.PI / 180;
    double sinLat = Math.sin(dLat / 2);
    double sinLon = Math.sin(dLon / 2);
    double h = sinLat * sinLat + Math.cos(lat1) * Math.cos(lat2) * sinLon * sinLon;
    return 2 * r * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
  }
}
