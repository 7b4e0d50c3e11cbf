package dev.cohort.cli;

import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * What {@code cohort bench sweep} writes: {@code sweep.csv} (one row per point: the median of each
 * metric over the point's runs, the least and greatest time per session, and the sweep's warm-up:
 * how many runs, and whether their times settled before the most allowed), {@code sweep-runs.csv}
 * (every run, warm-up runs included, for whoever wants another statistic) and PNG plots of medians
 * with bars from the least to the greatest run.
 */
final class SweepFiles {

  /** The columns of {@code sweep.csv}; the first thirteen are those of earlier versions. */
  static final String POINTS_HEADER =
      "sweep,parties,parallelism,latency_ms,bandwidth_mbit,sessions,wall_seconds,ms_per_session,"
          + "rounds,bytes_per_peer,frames_per_peer,peak_heap_bytes,process_cpu_seconds,"
          + "repeats,ms_per_session_min,ms_per_session_max,warmup_runs,warmup_settled";

  /** The columns of {@code sweep-runs.csv}. */
  static final String RUNS_HEADER =
      "sweep,parties,parallelism,latency_ms,phase,run,sessions,wall_seconds,ms_per_session,rounds,"
          + "bytes_per_peer,frames_per_peer,peak_heap_bytes,process_cpu_seconds";

  private final Path out;
  private final String subtitle;

  /** Files go to {@code out}; {@code subtitle} ends every plot's title (suite, sessions, runs). */
  SweepFiles(Path out, String subtitle) {
    this.out = out;
    this.subtitle = subtitle;
  }

  /** Writes {@code sweep.csv}: a row per point, every metric its median over the point's runs. */
  void writePoints(List<Sweep> sweeps, double bandwidthMbit) {
    StringBuilder csv = new StringBuilder(POINTS_HEADER).append('\n');
    for (Sweep sweep : sweeps) {
      for (SweepPoint p : sweep.points()) {
        SweepPoint.Spread time = p.spread(SweepRun::millisPerSession);
        csv.append(
            String.format(
                Locale.ROOT,
                "%s,%d,%d,%s,%s,%d,%.6f,%.6f,%d,%.1f,%.1f,%d,%.6f,%d,%.6f,%.6f,%d,%b%n",
                p.sweep(),
                p.setting().parties(),
                p.setting().parallelism(),
                p.setting().latencyMillis(),
                bandwidthMbit,
                (long) p.spread(SweepRun::sessions).median(),
                p.spread(SweepRun::wallSeconds).median(),
                time.median(),
                (long) p.spread(SweepRun::rounds).median(),
                p.spread(SweepRun::bytesPerPeer).median(),
                p.spread(SweepRun::framesPerPeer).median(),
                (long) p.spread(SweepRun::peakHeapBytes).median(),
                p.spread(SweepRun::cpuSeconds).median(),
                p.runs().size(),
                time.min(),
                time.max(),
                sweep.warmUp().size(),
                sweep.settled()));
      }
    }
    write("sweep.csv", csv);
  }

  /** Writes {@code sweep-runs.csv}: every run, warm-up ({@code warmup}) and measured. */
  void writeRuns(List<Sweep> sweeps) {
    StringBuilder csv = new StringBuilder(RUNS_HEADER).append('\n');
    for (Sweep sweep : sweeps) {
      if (sweep.points().isEmpty()) {
        continue;
      }
      SweepPoint.Setting first = sweep.points().get(0).setting();
      for (int r = 0; r < sweep.warmUp().size(); r++) {
        runRow(csv, sweep.name(), first, "warmup", r + 1, sweep.warmUp().get(r));
      }
      for (SweepPoint p : sweep.points()) {
        for (int r = 0; r < p.runs().size(); r++) {
          runRow(csv, sweep.name(), p.setting(), "measure", r + 1, p.runs().get(r));
        }
      }
    }
    write("sweep-runs.csv", csv);
  }

  private static void runRow(
      StringBuilder csv, String sweep, SweepPoint.Setting s, String phase, int run, SweepRun r) {
    csv.append(
        String.format(
            Locale.ROOT,
            "%s,%d,%d,%s,%s,%d,%d,%.6f,%.6f,%d,%.1f,%.1f,%d,%.6f%n",
            sweep,
            s.parties(),
            s.parallelism(),
            s.latencyMillis(),
            phase,
            run,
            r.sessions(),
            r.wallSeconds(),
            r.millisPerSession(),
            r.rounds(),
            r.bytesPerPeer(),
            r.framesPerPeer(),
            r.peakHeapBytes(),
            r.cpuSeconds()));
  }

  /** What a plot shows: its file, titles, and the x and y of each point. */
  record Plot(
      String file,
      String title,
      String xTitle,
      String yTitle,
      ToDoubleFunction<SweepPoint.Setting> x,
      ToDoubleFunction<SweepRun> y) {}

  /**
   * Draws {@code points} as a PNG: the medians joined by a line, and at each point a bar from the
   * least to the greatest run. XChart draws symmetric error bars around a series' y, so the bars
   * come from a second, invisible series centred between the least and greatest value.
   */
  void plot(Plot plot, List<SweepPoint> points, boolean logarithmicX) {
    int n = points.size();
    double[] x = new double[n];
    double[] median = new double[n];
    double[] centre = new double[n];
    double[] halfRange = new double[n];
    for (int i = 0; i < n; i++) {
      SweepPoint.Spread s = points.get(i).spread(plot.y());
      x[i] = plot.x().applyAsDouble(points.get(i).setting());
      median[i] = s.median();
      centre[i] = (s.min() + s.max()) / 2;
      halfRange[i] = (s.max() - s.min()) / 2;
    }
    XYChart chart =
        new XYChartBuilder()
            .width(1000)
            .height(500)
            .title(plot.title() + " (" + subtitle + ")")
            .xAxisTitle(plot.xTitle())
            .yAxisTitle(plot.yTitle())
            .build();
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setErrorBarsColorSeriesColor(true);
    chart.getStyler().setLegendVisible(false); // the title says what the line and the bars are
    if (logarithmicX && n > 1) {
      chart.getStyler().setXAxisLogarithmic(true);
    }
    XYSeries range = chart.addSeries("min to max", x, centre, halfRange);
    range.setMarker(SeriesMarkers.NONE);
    range.setLineStyle(SeriesLines.NONE);
    range.setLineColor(Color.GRAY);
    range.setShowInLegend(false);
    chart
        .addSeries("median (bars: least to greatest run)", x, median)
        .setMarker(SeriesMarkers.CIRCLE);
    try {
      BitmapEncoder.saveBitmap(
          chart, out.resolve(plot.file()).toString(), BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out.resolve(plot.file() + ".png"), e);
    }
  }

  private void write(String file, CharSequence text) {
    try {
      Files.writeString(out.resolve(file), text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + out.resolve(file), e);
    }
  }
}
