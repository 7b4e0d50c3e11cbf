package dev.cohort.clients;

import dev.cohort.clients.Messages.Status;
import dev.cohort.metrics.Counter;
import dev.cohort.metrics.LabelledCounter;
import dev.cohort.metrics.MetricsRegistry;
import dev.cohort.metrics.Summary;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * An input server's counters in a {@link MetricsRegistry} (what {@code cohort server
 * --metrics-port} serves), updated from transport threads without locks:
 *
 * <pre>
 * cohort_input_connected_clients                      clients connected now
 * cohort_input_submissions_received_total             taken into a session's inbox
 * cohort_input_submissions_refused_total{reason}      late, not_open, duplicate, malformed
 * cohort_input_submissions_excluded_total{reason}     left out of a session ({@link Exclusion})
 * cohort_input_sessions_total                         sessions run
 * cohort_input_contributors_total                     submissions the sessions took
 * cohort_input_session_contributors                   in the last session
 * cohort_input_session_check_seconds_{sum,count,last} agreeing on and checking submissions
 * cohort_input_session_compute_seconds_{sum,count,last} the session's computation
 * </pre>
 */
public final class ServerStats {

  private final MetricsRegistry registry;
  private final LongAdder connected = new LongAdder();
  private final Counter received;
  private final LabelledCounter refused;
  private final LabelledCounter excluded;
  private final Counter sessions;
  private final Counter contributors;
  private volatile int lastContributors;
  private final Summary check;
  private final Summary compute;

  /** Counters in a registry of their own. */
  public ServerStats() {
    this(new MetricsRegistry());
  }

  /** Counters registered in {@code registry}. */
  public ServerStats(MetricsRegistry registry) {
    this.registry = registry;
    registry.gauge("input_connected_clients", "Input clients connected now.", connected::sum);
    received =
        registry.counter(
            "input_submissions_received_total", "Submissions taken into a session's inbox.");
    refused =
        registry.labelledCounter(
            "input_submissions_refused_total", "Submissions refused on arrival.", "reason");
    excluded =
        registry.labelledCounter(
            "input_submissions_excluded_total",
            "Received submissions a session left out.",
            "reason");
    sessions = registry.counter("input_sessions_total", "Sessions run.");
    contributors = registry.counter("input_contributors_total", "Submissions the sessions took.");
    registry.gauge(
        "input_session_contributors", "Submissions the last session took.", () -> lastContributors);
    check =
        registry.summary(
            "input_session_check_seconds",
            "Time to agree on a session's submissions and check them.",
            1e-9);
    compute =
        registry.summary("input_session_compute_seconds", "Time of a session's computation.", 1e-9);
    for (Status s : Status.values()) {
      if (s != Status.RECEIVED) {
        refused.labels(label(s));
      }
    }
    for (Exclusion e : Exclusion.values()) {
      excluded.labels(e.label);
    }
  }

  private static String label(Status s) {
    return s.name().toLowerCase(Locale.ROOT);
  }

  public MetricsRegistry registry() {
    return registry;
  }

  void connected() {
    connected.increment();
  }

  void disconnected() {
    connected.decrement();
  }

  void received() {
    received.increment();
  }

  void refused(Status s) {
    refused.increment(label(s));
  }

  void session(int valid, Map<Exclusion, Integer> left, long checkNanos, long computeNanos) {
    sessions.increment();
    contributors.add(valid);
    lastContributors = valid;
    left.forEach((e, k) -> excluded.labels(e.label).add(k));
    check.record(checkNanos);
    compute.record(computeNanos);
  }

  /** Clients connected now. */
  public long connectedClients() {
    return connected.sum();
  }

  /** Submissions taken into a session's inbox so far. */
  public long receivedSubmissions() {
    return received.value();
  }

  /**
   * Submissions (and, over SPDZ, requests for masks) refused on arrival, by reason (late, not_open,
   * duplicate, malformed, no_masks).
   */
  public Map<String, Long> refusedByReason() {
    Map<String, Long> out = new TreeMap<>();
    for (Status s : Status.values()) {
      if (s != Status.RECEIVED) {
        out.put(label(s), refused.value(label(s)));
      }
    }
    return out;
  }

  /** Submissions a session left out, by {@link Exclusion#label}. */
  public Map<String, Long> excludedByReason() {
    Map<String, Long> out = new TreeMap<>();
    for (Exclusion e : Exclusion.values()) {
      out.put(e.label, excluded.value(e.label));
    }
    return out;
  }

  public long sessionsRun() {
    return sessions.value();
  }

  public long contributorsTotal() {
    return contributors.value();
  }

  public int lastSessionContributors() {
    return lastContributors;
  }
}
