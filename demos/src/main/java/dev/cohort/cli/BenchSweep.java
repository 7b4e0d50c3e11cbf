package dev.cohort.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort bench sweep}: runs the distance-average demo in this JVM over a range of party
 * counts and a range of parallelism, and writes {@code sweep.csv} and PNG plots.
 *
 * <p>Each point is one run of the demo with fresh keys and connections; a warm-up run comes first
 * so that the JIT compiler's work does not land on the first point. Time per session counts the
 * sessions only, not connecting.
 */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Runs the distance-average demo (all parties in this JVM, Netty over loopback) for each"
          + " number of parties, each parallelism and each emulated latency, and writes sweep.csv"
          + " and PNG plots: time per session vs parties, vs parallelism and vs latency, bytes"
          + " per peer vs parties, peak heap vs parties.",
      ""
    })
final class BenchSweep implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--parties",
      paramLabel = "N,N,...",
      split = ",",
      defaultValue = "3,5,7,9,11,13,15",
      description = "Party counts, server included (default: ${DEFAULT-VALUE}).")
  List<Integer> parties;

  @Option(
      names = "--parallelism",
      paramLabel = "K,K,...",
      split = ",",
      defaultValue = "1,2,4,8,16,32,64",
      description = "Sessions per engine run, with 3 parties (default: ${DEFAULT-VALUE}).")
  List<Integer> parallelism;

  @Option(
      names = "--latency-ms",
      paramLabel = "MS,MS,...",
      split = ",",
      defaultValue = "0,1,2,5,10",
      description =
          "Emulated one-way latencies per link, with 3 parties (default: ${DEFAULT-VALUE}).")
  List<Double> latencies;

  @Option(
      names = "--bandwidth-mbit",
      paramLabel = "MBIT",
      defaultValue = "0",
      description =
          "Bandwidth cap of every link at every point, in Mbit/s; 0 for none (default:"
              + " ${DEFAULT-VALUE}).")
  double bandwidthMbit;

  @Option(
      names = "--sessions",
      paramLabel = "S",
      defaultValue = "200",
      description = "Sessions per point (default: ${DEFAULT-VALUE}).")
  int sessions;

  @Option(
      names = "--suite",
      paramLabel = "SUITE",
      defaultValue = "bgw",
      description = "bgw or spdz (default: ${DEFAULT-VALUE}).")
  String suite;

  @Option(
      names = "--insecure-plaintext",
      description = "Plain TCP without TLS, INSECURE (default: TLS 1.3 with keys per run).")
  boolean plaintext;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "sweep",
      description = "Where sweep.csv and the PNGs go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  /** One measured point. */
  record Point(
      String sweep,
      int parties,
      int parallelism,
      double latencyMillis,
      long sessions,
      double wallSeconds,
      double millisPerSession,
      long rounds,
      double bytesPerPeer,
      double framesPerPeer,
      long peakHeapBytes,
      double cpuSeconds) {}

  @Override
  public Integer call() throws IOException {
    if (sessions < 1) {
      throw new ParameterException(spec.commandLine(), "sessions (" + sessions + ") must be >= 1");
    }
    System.setProperty("java.awt.headless", "true");
    PrintWriter stdout = spec.commandLine().getOut();
    Files.createDirectories(out);
    measure("warm-up", 3, 1, 0, sessions);
    List<Point> byParties = new ArrayList<>();
    for (int n : parties) {
      byParties.add(measure("parties", n, 1, 0, sessions));
      stdout.println(line(byParties.get(byParties.size() - 1)));
      stdout.flush();
    }
    List<Point> byParallelism = new ArrayList<>();
    for (int k : parallelism) {
      byParallelism.add(measure("parallelism", 3, k, 0, sessions));
      stdout.println(line(byParallelism.get(byParallelism.size() - 1)));
      stdout.flush();
    }
    List<Point> byLatency = new ArrayList<>();
    for (double latency : latencies) {
      byLatency.add(measure("latency", 3, 1, latency, sessions));
      stdout.println(line(byLatency.get(byLatency.size() - 1)));
      stdout.flush();
    }
    writeCsv(byParties, byParallelism, byLatency);
    plot(
        "time-per-session-vs-parties",
        "Time per session vs parties",
        "parties",
        "ms per session",
        byParties,
        Point::parties,
        Point::millisPerSession);
    plot(
        "time-per-session-vs-parallelism",
        "Time per session vs parallelism (3 parties)",
        "sessions per engine run",
        "ms per session",
        byParallelism,
        Point::parallelism,
        Point::millisPerSession);
    plot(
        "time-per-session-vs-latency",
        "Time per session vs one-way latency (3 parties)",
        "latency per link (ms)",
        "ms per session",
        byLatency,
        Point::latencyMillis,
        Point::millisPerSession);
    plot(
        "bytes-per-peer-vs-parties",
        "Bytes sent per peer per session vs parties",
        "parties",
        "bytes per peer per session (mean over parties)",
        byParties,
        Point::parties,
        p -> p.bytesPerPeer() / p.sessions());
    plot(
        "peak-heap-vs-parties",
        "Peak heap vs parties (all parties in one JVM)",
        "parties",
        "MiB",
        byParties,
        Point::parties,
        p -> p.peakHeapBytes() / (1024.0 * 1024.0));
    stdout.printf("wrote %s and 5 PNG plots to %s%n", out.resolve("sweep.csv"), out);
    stdout.flush();
    return 0;
  }

  private Point measure(String sweep, int n, int k, double latency, int s) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--devices",
                Integer.toString(n - 1),
                "--sessions",
                Integer.toString(s),
                "--parallelism",
                Integer.toString(k),
                "--suite",
                suite,
                "--latency-ms",
                Double.toString(latency),
                "--bandwidth-mbit",
                Double.toString(bandwidthMbit),
                "--no-progress"));
    if (plaintext) {
      args.add("--insecure-plaintext");
    }
    CommandLine demo = new CommandLine(new DemoDistanceAverage());
    try {
      demo.parseArgs(args.toArray(new String[0]));
    } catch (ParameterException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    System.gc(); // so that one point's garbage does not count in the next one's peak heap
    PrintWriter quiet = new PrintWriter(new StringWriter());
    DemoDistanceAverage.Measurement m =
        ((DemoDistanceAverage) demo.getCommand()).measure(quiet, quiet);
    long bytes = 0;
    long frames = 0;
    long pairs = 0;
    for (DistanceAverageParty.Outcome o : m.outcomes()) {
      for (int p = 0; p < o.bytesSent().length; p++) {
        if (p != o.party()) {
          bytes += o.bytesSent()[p];
          frames += o.framesSent()[p];
          pairs++;
        }
      }
    }
    DistanceAverageParty.Outcome server = m.outcomes().get(0);
    return new Point(
        sweep,
        n,
        k,
        latency,
        server.sessionsRun(),
        m.wallNanos() / 1e9,
        server.sessionNanos() / 1e6 / server.sessionsRun(),
        server.rounds(),
        bytes / (double) pairs,
        frames / (double) pairs,
        m.usage().peakHeapBytes(),
        m.usage().processCpuNanos() / 1e9);
  }

  private static String line(Point p) {
    return String.format(
        Locale.ROOT,
        "%-11s parties %3d  parallelism %3d  latency %5.1f ms  %8.3f ms/session  %9.1f bytes/peer"
            + "  %7.1f MiB heap",
        p.sweep(),
        p.parties(),
        p.parallelism(),
        p.latencyMillis(),
        p.millisPerSession(),
        p.bytesPerPeer(),
        p.peakHeapBytes() / (1024.0 * 1024.0));
  }

  private void writeCsv(List<Point> byParties, List<Point> byParallelism, List<Point> byLatency) {
    StringBuilder csv =
        new StringBuilder(
            "sweep,parties,parallelism,latency_ms,bandwidth_mbit,sessions,wall_seconds,"
                + "ms_per_session,rounds,"
                + "bytes_per_peer,frames_per_peer,peak_heap_bytes,process_cpu_seconds\n");
    List<Point> all = new ArrayList<>(byParties);
    all.addAll(byParallelism);
    all.addAll(byLatency);
    for (Point p : all) {
      csv.append(
          String.format(
              Locale.ROOT,
              "%s,%d,%d,%s,%s,%d,%.6f,%.6f,%d,%.1f,%.1f,%d,%.6f%n",
              p.sweep(),
              p.parties(),
              p.parallelism(),
              p.latencyMillis(),
              bandwidthMbit,
              p.sessions(),
              p.wallSeconds(),
              p.millisPerSession(),
              p.rounds(),
              p.bytesPerPeer(),
              p.framesPerPeer(),
              p.peakHeapBytes(),
              p.cpuSeconds()));
    }
    try {
      Files.writeString(out.resolve("sweep.csv"), csv, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out.resolve("sweep.csv"), e);
    }
  }

  /** A y value of a point. */
  private interface Metric {
    double of(Point p);
  }

  private void plot(
      String file,
      String title,
      String xTitle,
      String yTitle,
      List<Point> points,
      Metric xMetric,
      Metric metric) {
    double[] x = new double[points.size()];
    double[] y = new double[points.size()];
    for (int i = 0; i < points.size(); i++) {
      x[i] = xMetric.of(points.get(i));
      y[i] = metric.of(points.get(i));
    }
    XYChart chart =
        new XYChartBuilder()
            .width(800)
            .height(500)
            .title(title + " (" + suite + ", " + sessions + " sessions)")
            .xAxisTitle(xTitle)
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setLegendVisible(false);
    chart.getStyler().setYAxisMin(0.0);
    if (xTitle.startsWith("sessions") && points.size() > 1) {
      chart.getStyler().setXAxisLogarithmic(true);
    }
    chart.addSeries(yTitle, x, y).setMarker(SeriesMarkers.CIRCLE);
    try {
      BitmapEncoder.saveBitmap(chart, out.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out.resolve(file + ".png"), e);
    }
  }
}
