package dev.cohort.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort bench sweep}: runs the distance-average demo in this JVM over a range of party
 * counts, a range of parallelism and a range of latencies, and writes CSV files and PNG plots.
 *
 * <p>Each run has fresh keys and connections; time per session counts the sessions only, not
 * connecting. Measurements a reader can trust:
 *
 * <ul>
 *   <li>Warm-up: before each sweep, its first setting runs until its time per session has stopped
 *       falling ({@link WarmUp}), at most {@code --warmup-runs} times, so that the JIT compiler's
 *       work does not land on the first point (it made the time per session fall from 3 to 5
 *       parties).
 *   <li>Repeats: every point runs {@code --repeat} times (odd, so the median is one of the runs).
 *       The repeats are interleaved (every point of the sweep once, then every point again), so a
 *       drift in the machine's speed, or another program's load, spreads over all points instead of
 *       landing on a few. The CSV gives the median of every metric and the least and greatest time
 *       per session; the plots draw medians with bars from the least to the greatest run.
 * </ul>
 */
@Command(
    name = "sweep",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Runs the distance-average demo (all parties in this JVM, Netty over loopback) for each"
          + " number of parties, each parallelism and each emulated latency, and writes sweep.csv"
          + " (a row per point: medians over the repeats, and the least and greatest time per"
          + " session), sweep-runs.csv (every run, warm-up included) and PNG plots with bars from"
          + " the least to the greatest run: time per session vs parties, vs parallelism and vs"
          + " latency, bytes per peer vs parties, peak heap vs parties.",
      "Before each sweep, its first setting runs until its time per session stops falling (the"
          + " median of the last "
          + WarmUp.WINDOW
          + " runs no more than "
          + WarmUp.TOLERANCE_PERCENT
          + "% below that of the "
          + WarmUp.WINDOW
          + " before them), at most --warmup-runs times, so that the first point is not measured"
          + " on cold code.",
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
      description = "Sessions per run (default: ${DEFAULT-VALUE}).")
  int sessions;

  @Option(
      names = "--repeat",
      paramLabel = "R",
      defaultValue = "5",
      description =
          "Runs per point, odd so that the median is one of them (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(
      names = "--warmup-runs",
      paramLabel = "W",
      defaultValue = "20",
      description =
          "Most warm-up runs before each sweep; fewer when the times settle first, 0 for none"
              + " (default: ${DEFAULT-VALUE}).")
  int warmupRuns;

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
      description = "Where the CSV files and the PNGs go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  private PrintWriter stdout;

  @Override
  public Integer call() throws IOException {
    checkOptions();
    System.setProperty("java.awt.headless", "true");
    stdout = spec.commandLine().getOut();
    Files.createDirectories(out);
    List<SweepPoint.Setting> byParties = new ArrayList<>();
    parties.forEach(n -> byParties.add(new SweepPoint.Setting(n, 1, 0)));
    List<SweepPoint.Setting> byParallelism = new ArrayList<>();
    parallelism.forEach(k -> byParallelism.add(new SweepPoint.Setting(3, k, 0)));
    List<SweepPoint.Setting> byLatency = new ArrayList<>();
    latencies.forEach(l -> byLatency.add(new SweepPoint.Setting(3, 1, l)));
    List<Sweep> sweeps =
        List.of(
            sweep("parties", byParties),
            sweep("parallelism", byParallelism),
            sweep("latency", byLatency));
    SweepFiles files =
        new SweepFiles(
            out,
            suite + ", " + sessions + " sessions, median of " + repeat + " runs, bars: min to max");
    files.writePoints(sweeps, bandwidthMbit);
    files.writeRuns(sweeps);
    plot(files, sweeps);
    stdout.printf(
        "wrote %s, %s and 5 PNG plots to %s%n",
        out.resolve("sweep.csv"), out.resolve("sweep-runs.csv"), out);
    stdout.flush();
    return 0;
  }

  private void checkOptions() {
    if (sessions < 1) {
      throw new ParameterException(spec.commandLine(), "sessions (" + sessions + ") must be >= 1");
    }
    if (repeat < 1 || repeat % 2 == 0) {
      throw new ParameterException(
          spec.commandLine(),
          "repeat (" + repeat + ") must be odd and >= 1, so that the median is one of the runs");
    }
    if (warmupRuns < 0) {
      throw new ParameterException(
          spec.commandLine(), "warmup-runs (" + warmupRuns + ") must be >= 0");
    }
  }

  /** Warms up on the first setting, then measures every setting {@code repeat} times. */
  private Sweep sweep(String name, List<SweepPoint.Setting> settings) {
    if (settings.isEmpty()) {
      return new Sweep(name, List.of(), true, List.of());
    }
    List<SweepRun> warmUp = new ArrayList<>();
    List<Double> times = new ArrayList<>();
    boolean settled = warmupRuns == 0;
    while (!settled && warmUp.size() < warmupRuns) {
      SweepRun run = measure(settings.get(0));
      warmUp.add(run);
      times.add(run.millisPerSession());
      print(name, settings.get(0), "warm-up " + warmUp.size(), run);
      settled = WarmUp.settled(times);
    }
    if (!settled) {
      stdout.printf(
          "%s: the times per session had not settled after %d warm-up runs; measuring anyway%n",
          name, warmupRuns);
    }
    List<List<SweepRun>> runs = new ArrayList<>();
    settings.forEach(s -> runs.add(new ArrayList<>()));
    for (int r = 1; r <= repeat; r++) {
      for (int i = 0; i < settings.size(); i++) {
        SweepRun run = measure(settings.get(i));
        runs.get(i).add(run);
        print(name, settings.get(i), "run " + r + "/" + repeat, run);
      }
    }
    List<SweepPoint> points = new ArrayList<>();
    for (int i = 0; i < settings.size(); i++) {
      points.add(new SweepPoint(name, settings.get(i), runs.get(i)));
      summary(points.get(i));
    }
    return new Sweep(name, warmUp, settled, points);
  }

  private SweepRun measure(SweepPoint.Setting setting) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--devices",
                Integer.toString(setting.parties() - 1),
                "--sessions",
                Integer.toString(sessions),
                "--parallelism",
                Integer.toString(setting.parallelism()),
                "--suite",
                suite,
                "--latency-ms",
                Double.toString(setting.latencyMillis()),
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
    System.gc(); // so that one run's garbage does not count in the next one's peak heap
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
    return new SweepRun(
        server.sessionsRun(),
        m.wallNanos() / 1e9,
        server.sessionNanos() / 1e6 / server.sessionsRun(),
        server.rounds(),
        bytes / (double) pairs,
        frames / (double) pairs,
        m.usage().peakHeapBytes(),
        m.usage().processCpuNanos() / 1e9);
  }

  private void print(String sweep, SweepPoint.Setting s, String which, SweepRun run) {
    stdout.println(
        String.format(
            Locale.ROOT,
            "%-11s parties %3d  parallelism %3d  latency %5.1f ms  %-10s %8.3f ms/session"
                + "  %9.1f bytes/peer  %7.1f MiB heap",
            sweep,
            s.parties(),
            s.parallelism(),
            s.latencyMillis(),
            which,
            run.millisPerSession(),
            run.bytesPerPeer(),
            run.peakHeapBytes() / (1024.0 * 1024.0)));
    stdout.flush();
  }

  private void summary(SweepPoint p) {
    SweepPoint.Spread time = p.spread(SweepRun::millisPerSession);
    stdout.printf(
        Locale.ROOT,
        "%-11s parties %3d  parallelism %3d  latency %5.1f ms  median     %8.3f ms/session"
            + "  (least %.3f, greatest %.3f, %d runs)%n",
        p.sweep(),
        p.setting().parties(),
        p.setting().parallelism(),
        p.setting().latencyMillis(),
        time.median(),
        time.min(),
        time.max(),
        p.runs().size());
    stdout.flush();
  }

  private void plot(SweepFiles files, List<Sweep> sweeps) {
    List<SweepPoint> byParties = sweeps.get(0).points();
    String perSession = "ms per session";
    files.plot(
        new SweepFiles.Plot(
            "time-per-session-vs-parties",
            "Time per session vs parties",
            "parties",
            perSession,
            SweepPoint.Setting::parties,
            SweepRun::millisPerSession),
        byParties,
        false);
    files.plot(
        new SweepFiles.Plot(
            "time-per-session-vs-parallelism",
            "Time per session vs parallelism (3 parties)",
            "sessions per engine run",
            perSession,
            SweepPoint.Setting::parallelism,
            SweepRun::millisPerSession),
        sweeps.get(1).points(),
        true);
    files.plot(
        new SweepFiles.Plot(
            "time-per-session-vs-latency",
            "Time per session vs one-way latency (3 parties)",
            "latency per link (ms)",
            perSession,
            SweepPoint.Setting::latencyMillis,
            SweepRun::millisPerSession),
        sweeps.get(2).points(),
        false);
    files.plot(
        new SweepFiles.Plot(
            "bytes-per-peer-vs-parties",
            "Bytes sent per peer per session vs parties",
            "parties",
            "bytes per peer per session (mean over parties)",
            SweepPoint.Setting::parties,
            r -> r.bytesPerPeer() / r.sessions()),
        byParties,
        false);
    files.plot(
        new SweepFiles.Plot(
            "peak-heap-vs-parties",
            "Peak heap vs parties (all parties in one JVM)",
            "parties",
            "MiB",
            SweepPoint.Setting::parties,
            r -> r.peakHeapBytes() / (1024.0 * 1024.0)),
        byParties,
        false);
  }
}
