package dev.cohort.cli;

import dev.cohort.api.PartyId;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * What a measurement paper reports about one run of a demo, printed for people or as JSON: wall
 * time, time per session, rounds, bytes and frames sent per peer, peak heap and CPU time.
 *
 * @param header lines of {@code name: value} describing the run, printed before the costs
 * @param outcomes the parties this process ran (all of them, or its one party)
 * @param sessions sessions run in this process's run
 * @param wallNanos wall time of the run, connecting included
 * @param usage this process's CPU time and peak heap
 */
record DemoReport(
    List<String[]> header,
    List<DistanceAverageParty.Outcome> outcomes,
    long sessions,
    long wallNanos,
    Resources.Usage usage) {

  void print(PrintWriter out) {
    for (String[] line : header) {
      out.printf("%-18s%s%n", line[0] + ":", line[1]);
    }
    out.println("--- costs ---");
    DistanceAverageParty.Outcome any = outcomes.get(0);
    out.printf(
        "%-18s%.3f s, of which %s %.3f s (the rest: keys, connecting, warm-up)%n",
        "wall time:",
        wallNanos / 1e9,
        sessions > 0 ? "sessions" : "computing",
        any.sessionNanos() / 1e9);
    if (sessions > 0) {
      out.printf("%-18s%.3f ms%n", "time per session:", any.sessionNanos() / 1e6 / sessions);
    }
    out.printf(
        "%-18s%d per party (+%d set-up)%s%n",
        "rounds:",
        any.rounds(),
        any.setupRounds(),
        sessions > 0
            ? String.format(Locale.ROOT, ", %.2f per session", any.rounds() / (double) sessions)
            : "");
    out.printf("%-18s%s%n", "CPU time:", cpu());
    out.printf("%-18s%.1f MiB%n", "peak heap:", usage.peakHeapBytes() / (1024.0 * 1024.0));
    out.println("sent per peer (mean over peers; --json lists every peer):");
    for (DistanceAverageParty.Outcome o : outcomes) {
      int peers = o.bytesSent().length - 1;
      long bytes = 0;
      long frames = 0;
      for (int p = 0; p < o.bytesSent().length; p++) {
        bytes += o.bytesSent()[p];
        frames += o.framesSent()[p];
      }
      out.printf(
          Locale.ROOT,
          "  %-4s %12d bytes in %8d frames, %.2f frames per round%s%n",
          PartyId.of(o.party()),
          bytes / peers,
          frames / peers,
          frames / (double) peers / Math.max(1, o.rounds() + o.setupRounds()),
          sessions > 0
              ? String.format(
                  Locale.ROOT, ", %.1f bytes per session", bytes / (double) peers / sessions)
              : "");
    }
    out.flush();
  }

  private String cpu() {
    StringBuilder sb = new StringBuilder();
    if (usage.processCpuNanos() >= 0) {
      sb.append(String.format(Locale.ROOT, "%.3f s (process)", usage.processCpuNanos() / 1e9));
    }
    sb.append(sb.length() > 0 ? "; " : "").append("party threads:");
    for (DistanceAverageParty.Outcome o : outcomes) {
      sb.append(
          String.format(
              Locale.ROOT, " %s %.3f s", PartyId.of(o.party()), o.threadCpuNanos() / 1e9));
    }
    return sb.toString();
  }

  /** One JSON object, on one line. */
  void printJson(PrintWriter out) {
    StringBuilder sb = new StringBuilder("{");
    for (String[] line : header) {
      sb.append(quote(line[0].replace(' ', '_'))).append(':').append(quote(line[1])).append(',');
    }
    sb.append("\"sessions_run\":").append(sessions);
    sb.append(",\"wall_seconds\":").append(seconds(wallNanos));
    sb.append(",\"sessions_seconds\":").append(seconds(outcomes.get(0).sessionNanos()));
    sb.append(",\"seconds_per_session\":")
        .append(
            sessions > 0 ? seconds(outcomes.get(0).sessionNanos() / (double) sessions) : "null");
    sb.append(",\"process_cpu_seconds\":")
        .append(usage.processCpuNanos() >= 0 ? seconds(usage.processCpuNanos()) : "null");
    sb.append(",\"peak_heap_bytes\":").append(usage.peakHeapBytes());
    sb.append(",\"parties\":[");
    for (int i = 0; i < outcomes.size(); i++) {
      DistanceAverageParty.Outcome o = outcomes.get(i);
      sb.append(i > 0 ? "," : "").append("{\"party\":").append(o.party());
      sb.append(",\"rounds\":").append(o.rounds());
      sb.append(",\"setup_rounds\":").append(o.setupRounds());
      sb.append(",\"thread_cpu_seconds\":").append(seconds(o.threadCpuNanos()));
      sb.append(",\"bytes_sent\":").append(array(o.bytesSent()));
      sb.append(",\"frames_sent\":").append(array(o.framesSent()));
      if (o.party() == 0) {
        sb.append(",\"first_session\":").append(o.firstSession());
        sb.append(",\"last_session\":").append(o.lastSession());
        sb.append(",\"running_sum\":").append(o.runningSum());
      }
      sb.append('}');
    }
    sb.append("]}");
    out.println(sb);
    out.flush();
  }

  private static String seconds(double nanos) {
    return String.format(Locale.ROOT, "%.6f", nanos / 1e9);
  }

  private static String array(long[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.length; i++) {
      sb.append(i > 0 ? "," : "").append(values[i]);
    }
    return sb.append(']').toString();
  }

  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (char c : s.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }
}
