package dev.cohort.metrics;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The metrics of one process, and their exposition in the Prometheus text format ({@link #scrape}).
 * Every name is exposed with the prefix {@value #PREFIX}: {@code counter("rounds_total", ...)}
 * appears as {@code cohort_rounds_total}.
 *
 * <p>Four kinds: a {@link Counter}; a gauge read from a {@link LongSupplier} at each scrape (a
 * queue's length, connected clients); a {@link LabelledCounter} (one counter per value of one
 * label); and a {@link Summary} (sum and count of observations, and a gauge {@code _last} of the
 * last one).
 *
 * <p>Registering takes a lock and checks that no two families expose the same name; it happens at
 * start-up. Counting never touches the registry: callers keep the {@link Counter} or {@link
 * Summary} they registered, whose updates are lock-free. A scrape runs the gauges' suppliers on the
 * caller's thread (the metrics server's event loop), so a supplier must be quick and must not
 * block.
 */
public final class MetricsRegistry {

  /** The prefix of every exposed name. */
  public static final String PREFIX = "cohort_";

  /** Appends the samples of one family. */
  private interface Samples {
    void write(StringBuilder out, String name);
  }

  /** A family as exposed: its full name, HELP text, TYPE and samples. */
  private record Family(String name, String help, String type, Samples samples) {}

  private final List<Family> families = new CopyOnWriteArrayList<>();
  private final Set<String> names = new HashSet<>(); // guarded by this

  /**
   * Registers a counter; its name must end in {@code _total}, as Prometheus names counters ({@code
   * "submissions_total"}).
   */
  public Counter counter(String name, String help) {
    Counter counter = new Counter();
    register(
        counterName(name),
        help,
        "counter",
        (out, n) -> PrometheusText.sample(out, n, Long.toString(counter.value())));
    return counter;
  }

  /** Registers a gauge whose value {@code value} gives at each scrape. */
  public void gauge(String name, String help, LongSupplier value) {
    if (value == null) {
      throw new NullPointerException("value supplier of gauge " + name);
    }
    register(
        name,
        help,
        "gauge",
        (out, n) -> PrometheusText.sample(out, n, Long.toString(value.getAsLong())));
  }

  /**
   * Registers a family of counters, one per value of {@code label}; its name must end in {@code
   * _total} ({@code labelledCounter("refused_total", "...", "reason")}).
   */
  public LabelledCounter labelledCounter(String name, String help, String label) {
    LabelledCounter counters = new LabelledCounter(name, PrometheusText.checkLabel(label));
    register(
        counterName(name),
        help,
        "counter",
        (out, n) -> {
          for (String value : counters.values()) {
            PrometheusText.sample(out, n, label, value, Long.toString(counters.value(value)));
          }
        });
    return counters;
  }

  /**
   * Registers a summary exposed as {@code <name>_sum} and {@code <name>_count}, and a gauge {@code
   * <name>_last} of the last observation (NaN before the first). Observations are multiplied by
   * {@code scale} when exposed: record nanoseconds with a scale of 1e-9 under a name ending in
   * {@code _seconds}.
   */
  public Summary summary(String name, String help, double scale) {
    if (!(scale > 0) || Double.isInfinite(scale)) {
      throw new IllegalArgumentException("scale (" + scale + ") of " + name + " must be > 0");
    }
    Summary summary = new Summary(scale);
    Samples samples =
        (out, n) -> {
          long count = summary.count();
          PrometheusText.sample(out, n + "_sum", PrometheusText.number(summary.sum(), scale));
          PrometheusText.sample(out, n + "_count", Long.toString(count));
        };
    Samples last =
        (out, n) ->
            PrometheusText.sample(
                out,
                n,
                summary.count() == 0
                    ? "NaN"
                    : PrometheusText.number(summary.last(), summary.scale()));
    register(
        List.of(
            new Family(name, help, "summary", samples),
            new Family(name + "_last", help + " (the last observation)", "gauge", last)),
        List.of("_sum", "_count"));
    return summary;
  }

  /** Every family in the text format 0.0.4, in the order they were registered. */
  public String scrape() {
    StringBuilder out = new StringBuilder(256 * families.size());
    for (Family family : families) {
      PrometheusText.header(out, family.name(), family.help(), family.type());
      family.samples().write(out, family.name());
    }
    return out.toString();
  }

  private static String counterName(String name) {
    if (name != null && !name.endsWith("_total")) {
      throw new IllegalArgumentException("counter name (" + name + ") must end in _total");
    }
    return name;
  }

  private void register(String name, String help, String type, Samples samples) {
    register(List.of(new Family(name, help, type, samples)), List.of());
  }

  /**
   * Adds {@code added} (names without the prefix) under {@code PREFIX + name}, all or none,
   * reserving also the name of the first plus each of {@code suffixes} (a summary's {@code _sum}
   * and {@code _count}), so that no two families expose one name.
   */
  private synchronized void register(List<Family> added, List<String> suffixes) {
    Set<String> taken = new HashSet<>();
    for (Family family : added) {
      String name = PrometheusText.checkName(family.name());
      if (name.startsWith(PREFIX)) {
        throw new IllegalArgumentException(
            "metric name (" + name + ") must not start with " + PREFIX + ": the registry adds it");
      }
      if (family.help() == null) {
        throw new NullPointerException("help of " + name);
      }
      taken.add(PREFIX + name);
    }
    for (String suffix : suffixes) {
      taken.add(PREFIX + added.get(0).name() + suffix);
    }
    for (String name : taken) {
      if (names.contains(name)) {
        throw new IllegalArgumentException(name + " is registered already");
      }
    }
    names.addAll(taken);
    for (Family family : added) {
      families.add(
          new Family(PREFIX + family.name(), family.help(), family.type(), family.samples()));
    }
  }
}
