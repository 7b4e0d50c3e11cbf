package dev.cohort.cli;

import dev.cohort.clients.ClientCrowd;
import dev.cohort.clients.LocalDeployment;
import dev.cohort.clients.SessionOutcome;
import dev.cohort.clients.Shape;
import dev.cohort.clients.Sums;
import dev.cohort.field.Fields;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Pattern;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.markers.SeriesMarkers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort bench clients}: the published comparison of summing one value from each of many
 * participants, with Cohort's input clients (3 BGW servers, TLS, validated submissions) beside an
 * INSECURE plain threaded TCP server in the same run.
 */
@Command(
    name = "clients",
    mixinStandardHelpOptions = true,
    version = "0.1.0",
    sortOptions = false,
    description = {
      "Sums one 4-bit value from each of N participants. Cohort: 3 BGW servers in this JVM and"
          + " N input clients, each with its own certificate and TLS 1.3 connections to every"
          + " server; 'first session' counts from the clients' first connection (3N handshakes)"
          + " to the opened sum, 'further session' a session of the same connected clients."
          + " Baselines: an INSECURE plain threaded TCP server (no secrecy, no TLS) summing the"
          + " same values in the same run, once with each participant connecting anew and once"
          + " with participants that stay connected (a further session's counterpart); and the"
          + " floor of a further session's messages: the same messages (one from each"
          + " participant to each of 3 servers, one answer from server 0) in plain TCP with"
          + " non-blocking sockets and nothing else, INSECURE. Warm-up runs come first; every"
          + " point is repeated and"
          + " clients.csv holds the median, minimum and maximum; clients.png plots the medians"
          + " with error bars to the extremes, and the published figures at 1000. The CPU time"
          + " of the servers' threads per session (per server) is printed and written too: what a"
          + " session costs a server on a host of its own, where the clients' work is elsewhere.",
      ""
    })
final class BenchClients implements Callable<Integer> {

  /**
   * How much faster the median of the last 3 warm-up runs' first sessions may be than that of the 3
   * before and still count as settled, in percent ({@link WarmUp#settled(List, int)}).
   */
  static final int WARM_UP_TOLERANCE_PERCENT = 3;

  /** The published figures at 1000 participants, in seconds (the issue's comparison). */
  static final String[][] PUBLISHED = {
    {"plain threaded server (published)", "1.19"},
    {"SGX enclave (published)", "10.4"},
    {"FairplayMP (published)", "73"}
  };

  @Spec CommandSpec spec;

  @Option(
      names = "--clients",
      paramLabel = "N,N,...",
      split = ",",
      defaultValue = "10,100,200,300,500,700,1000",
      description = "Participant counts (default: ${DEFAULT-VALUE}).")
  List<Integer> counts;

  @Option(
      names = "--suite",
      paramLabel = "SUITE",
      defaultValue = "bgw",
      description =
          "bgw, or spdz with its INSECURE in-process dealer (the online phase measured; 2^61 - 1"
              + " either way) (default: ${DEFAULT-VALUE}).")
  String suite;

  @Option(
      names = "--repeat",
      paramLabel = "R",
      defaultValue = "5",
      description = "Measurements per point (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(
      names = "--warmup",
      paramLabel = "W",
      defaultValue = "20",
      description =
          "Most unmeasured runs of the largest point first; fewer once the first sessions' times"
              + " have stopped falling (the median of the last 3 no more than 3% below that of"
              + " the 3 before), 0 for none (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "bench-clients",
      description = "Where clients.csv and clients.png go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = Cohort.VERBOSE, description = "Print the stack trace of an error.")
  boolean verbose;

  /**
   * One point: wall times in ms of the first session, a further session, the plain baseline with
   * participants connecting anew and with participants already connected, the plain floor of a
   * further session's messages, and the servers' CPU time per server in ms for the first and the
   * further session.
   */
  record Point(
      int clients,
      double[] first,
      double[] further,
      double[] plain,
      double[] plainConnected,
      double[] messageFloor,
      double[] firstCpu,
      double[] furtherCpu) {}

  /**
   * The servers' threads in a {@link LocalDeployment}: their sessions ({@code cohort-P0}), their
   * client links ({@code cohort-client-link-of-P0-1}) and their mesh ({@code cohort-netty-P0}).
   */
  /** The compute servers of the deployment measured. */
  static final int SERVERS = 3;

  /** Rounds of the plain message floor per repetition, after two unmeasured ones. */
  static final int FLOOR_ROUNDS = 5;

  static final Pattern SERVER_THREAD =
      Pattern.compile("cohort-(client-link-of-|netty-)?P\\d+(-\\d+)?");

  @Override
  public Integer call() throws IOException {
    if (counts.isEmpty() || counts.stream().anyMatch(n -> n < 1) || repeat < 1 || warmup < 0) {
      throw new ParameterException(
          spec.commandLine(), "--clients must be positive, --repeat >= 1, --warmup >= 0");
    }
    int max = counts.stream().mapToInt(Integer::intValue).max().getAsInt();
    PrintWriter stdout = spec.commandLine().getOut();
    Files.createDirectories(out);
    ExecutorService pool = Executors.newFixedThreadPool(32, daemons());
    List<Point> points = new ArrayList<>();
    if (!suite.equals("bgw") && !suite.equals("spdz")) {
      throw new ParameterException(spec.commandLine(), "--suite must be bgw or spdz");
    }
    LocalDeployment.Settings settings =
        LocalDeployment.Settings.of(SERVERS, Fields.MERSENNE_61, Shape.of(4), max)
            .deadline(Duration.ofSeconds(120));
    try (LocalDeployment d =
            suite.equals("spdz")
                ? LocalDeployment.startSpdzInsecureDealer(
                    settings, new java.security.SecureRandom().nextLong())
                : LocalDeployment.start(settings);
        InsecurePlainSumServer plain = new InsecurePlainSumServer()) {
      List<TlsIdentity> identities = new ArrayList<>();
      for (int j = 0; j < max; j++) {
        identities.add(d.clientIdentity(j));
      }
      warmUp(stdout, d, plain, identities, max, pool);
      for (int n : counts) {
        double[][] m = new double[7][repeat];
        for (int r = 0; r < repeat; r++) {
          double[] one =
              measure(d, plain, identities, n, pool, new SplittableRandom(1000L * n + r));
          for (int k = 0; k < m.length; k++) {
            m[k][r] = one[k];
          }
        }
        Point p = new Point(n, m[0], m[1], m[2], m[3], m[4], m[5], m[6]);
        points.add(p);
        stdout.printf(
            Locale.ROOT,
            "%5d clients: first session %8.1f ms, further session %7.1f ms, INSECURE plain TCP"
                + " %7.1f ms (connected: %6.1f ms; a further session's messages alone: %6.1f"
                + " ms); CPU per server: first session %7.1f ms, further session %6.1f ms"
                + " (medians of %d)%n",
            n,
            median(p.first()),
            median(p.further()),
            median(p.plain()),
            median(p.plainConnected()),
            median(p.messageFloor()),
            median(p.firstCpu()),
            median(p.furtherCpu()),
            repeat);
        stdout.flush();
      }
    } finally {
      pool.shutdownNow();
    }
    writeCsv(points);
    plot(points);
    stdout.printf("wrote %s and %s%n", out.resolve("clients.csv"), out.resolve("clients.png"));
    return 0;
  }

  /**
   * Unmeasured runs of the largest point ({@code n} clients) until the first sessions' times have
   * stopped falling ({@link WarmUp}: the JIT compiler is still compiling Netty's and TLS's
   * per-connection paths for a dozen runs), at most {@code --warmup} of them.
   */
  private void warmUp(
      PrintWriter stdout,
      LocalDeployment d,
      InsecurePlainSumServer plain,
      List<TlsIdentity> identities,
      int n,
      ExecutorService pool) {
    List<Double> firstSessions = new ArrayList<>();
    boolean settled = warmup == 0;
    while (!settled && firstSessions.size() < warmup) {
      double[] one =
          measure(d, plain, identities, n, pool, new SplittableRandom(firstSessions.size()));
      firstSessions.add(one[0]);
      stdout.printf(
          Locale.ROOT,
          "warm-up %d at %d clients: first session %.1f ms, further session %.1f ms%n",
          firstSessions.size(),
          n,
          one[0],
          one[1]);
      stdout.flush();
      settled = WarmUp.settled(firstSessions, WARM_UP_TOLERANCE_PERCENT);
    }
    if (!settled) {
      stdout.printf(
          "the first sessions' times had not settled after %d warm-up runs; measuring anyway%n",
          warmup);
    }
  }

  /**
   * One repetition at {@code n} clients: first session, further session, plain baseline with
   * participants connecting anew and already connected, the plain floor of a further session's
   * messages (the median of {@link #FLOOR_ROUNDS} rounds after 2; wall ms), then the servers' CPU
   * ms per server in the first and in the further session.
   */
  private static double[] measure(
      LocalDeployment d,
      InsecurePlainSumServer plain,
      List<TlsIdentity> identities,
      int n,
      ExecutorService pool,
      SplittableRandom random) {
    long[][] values = new long[n][];
    int[] bytes = new int[n];
    long sum = 0;
    for (int j = 0; j < n; j++) {
      values[j] = new long[] {random.nextLong(-8, 8)};
      bytes[j] = (int) (values[j][0] + 8);
      sum += values[j][0];
    }
    for (int i = 0; i < 3; i++) {
      d.server(i).closeAfter(n);
    }
    long cpu0 = serversCpuNanos();
    long t0 = System.nanoTime();
    var first = d.session(new Sums());
    double firstMs;
    double furtherMs;
    long cpu1;
    long cpu2;
    try (ClientCrowd crowd =
        ClientCrowd.connectAndSubmit(
            d, identities.subList(0, n), values, pool, Duration.ofSeconds(120))) {
      check(first.join(), sum, n);
      firstMs = (System.nanoTime() - t0) / 1e6;
      cpu1 = serversCpuNanos();
      long t1 = System.nanoTime();
      var further = d.session(new Sums());
      crowd.submitAll(values, pool);
      check(further.join(), sum, n);
      furtherMs = (System.nanoTime() - t1) / 1e6;
      cpu2 = serversCpuNanos();
    }
    long t2 = System.nanoTime();
    long plainSum = plain.run(bytes, pool);
    double plainMs = (System.nanoTime() - t2) / 1e6;
    checkPlain(plainSum, sum, n);
    double connectedMs;
    try (InsecurePlainSumServer.Connected connected = plain.connect(n)) {
      checkPlain(plain.run(connected, bytes, pool), sum, n); // as the clients' first session
      long t3 = System.nanoTime();
      long again = plain.run(connected, bytes, pool);
      connectedMs = (System.nanoTime() - t3) / 1e6;
      checkPlain(again, sum, n);
    }
    double[] floorMs = new double[FLOOR_ROUNDS];
    try (InsecureMessageFloor floor = new InsecureMessageFloor(n)) {
      floor.round(pool); // as the first sessions
      floor.round(pool);
      for (int r = 0; r < FLOOR_ROUNDS; r++) {
        floorMs[r] = floor.round(pool);
      }
    }
    return new double[] {
      firstMs,
      furtherMs,
      plainMs,
      connectedMs,
      median(floorMs),
      (cpu1 - cpu0) / 1e6 / SERVERS,
      (cpu2 - cpu1) / 1e6 / SERVERS
    };
  }

  /** The plain server's sum of the values shifted to bytes ({@code value + 8}). */
  private static void checkPlain(long plainSum, long sum, int n) {
    if (plainSum != sum + 8L * n) {
      throw new IllegalStateException(
          "the plain server summed " + plainSum + ", expected " + (sum + 8L * n));
    }
  }

  /** The CPU time so far of every live server thread ({@link #SERVER_THREAD}), in nanoseconds. */
  static long serversCpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo t : mx.getThreadInfo(mx.getAllThreadIds())) {
      if (t != null && SERVER_THREAD.matcher(t.getThreadName()).matches()) {
        long cpu = mx.getThreadCpuTime(t.getThreadId());
        sum += Math.max(cpu, 0); // -1: the thread ended in between
      }
    }
    return sum;
  }

  private static void check(List<SessionOutcome<long[]>> outcomes, long sum, int n) {
    for (SessionOutcome<long[]> o : outcomes) {
      if (o.contributors() != n || o.value()[0] != sum) {
        throw new IllegalStateException(
            "a session counted "
                + o.contributors()
                + " of "
                + n
                + " clients with sum "
                + o.value()[0]
                + ", expected "
                + sum);
      }
    }
  }

  static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }

  private static double min(double[] xs) {
    return Arrays.stream(xs).min().orElse(Double.NaN);
  }

  private static double max(double[] xs) {
    return Arrays.stream(xs).max().orElse(Double.NaN);
  }

  private void writeCsv(List<Point> points) {
    StringBuilder csv =
        new StringBuilder("clients,system,measure,median_ms,min_ms,max_ms,repeats\n");
    for (Point p : points) {
      row(csv, p.clients(), "cohort-" + suite + "-3-servers-tls", "first session", p.first());
      row(csv, p.clients(), "cohort-" + suite + "-3-servers-tls", "further session", p.further());
      row(csv, p.clients(), "plain-tcp-INSECURE", "sum", p.plain());
      row(csv, p.clients(), "plain-tcp-INSECURE", "connected sum", p.plainConnected());
      row(csv, p.clients(), "plain-tcp-INSECURE", "further session messages", p.messageFloor());
      row(csv, p.clients(), "cohort-" + suite + "-per-server-cpu", "first session", p.firstCpu());
      row(
          csv,
          p.clients(),
          "cohort-" + suite + "-per-server-cpu",
          "further session",
          p.furtherCpu());
    }
    for (String[] published : PUBLISHED) {
      csv.append(
          String.format(
              Locale.ROOT,
              "1000,%s,published,%.1f,,,%n",
              published[0],
              Double.parseDouble(published[1]) * 1000));
    }
    try {
      Files.writeString(out.resolve("clients.csv"), csv, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out.resolve("clients.csv"), e);
    }
  }

  private static void row(StringBuilder csv, int n, String system, String measure, double[] xs) {
    csv.append(
        String.format(
            Locale.ROOT,
            "%d,%s,%s,%.2f,%.2f,%.2f,%d%n",
            n,
            system,
            measure,
            median(xs),
            min(xs),
            max(xs),
            xs.length));
  }

  private void plot(List<Point> points) {
    XYChart chart =
        new XYChartBuilder()
            .width(900)
            .height(550)
            .title("Sum of one 4-bit value per participant")
            .xAxisTitle("participants")
            .yAxisTitle("time (ms)")
            .build();
    chart.getStyler().setYAxisLogarithmic(true);
    double[] x = points.stream().mapToDouble(Point::clients).toArray();
    series(chart, "Cohort, first session (TLS handshakes included)", x, points, Point::first);
    series(chart, "Cohort, further session", x, points, Point::further);
    series(chart, "plain threaded TCP, INSECURE (this run)", x, points, Point::plain);
    series(
        chart,
        "plain threaded TCP, INSECURE, connected participants (this run)",
        x,
        points,
        Point::plainConnected);
    series(
        chart,
        "a further session's messages in plain TCP, INSECURE (this run)",
        x,
        points,
        Point::messageFloor);
    for (String[] published : PUBLISHED) {
      chart
          .addSeries(
              published[0],
              new double[] {1000},
              new double[] {Double.parseDouble(published[1]) * 1000})
          .setMarker(SeriesMarkers.DIAMOND);
    }
    try {
      BitmapEncoder.saveBitmap(
          chart, out.resolve("clients").toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out.resolve("clients.png"), e);
    }
  }

  private interface Measure {
    double[] of(Point p);
  }

  /** Medians with symmetric error bars reaching the farther extreme. */
  private static void series(
      XYChart chart, String name, double[] x, List<Point> points, Measure m) {
    double[] y = new double[points.size()];
    double[] err = new double[points.size()];
    for (int i = 0; i < y.length; i++) {
      double[] xs = m.of(points.get(i));
      y[i] = median(xs);
      // symmetric bars to the farther extreme, kept above zero for the logarithmic axis
      err[i] = Math.min(Math.max(y[i] - min(xs), max(xs) - y[i]), 0.9 * y[i]);
    }
    chart.addSeries(name, x, y, err).setMarker(SeriesMarkers.CIRCLE);
  }

  private static java.util.concurrent.ThreadFactory daemons() {
    return r -> {
      Thread t = new Thread(r, "bench-clients");
      t.setDaemon(true);
      return t;
    };
  }
}
