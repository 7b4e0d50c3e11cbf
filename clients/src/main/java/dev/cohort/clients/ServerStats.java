package dev.cohort.clients;

import dev.cohort.clients.Messages.Status;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * An input server's counters, updated from transport threads without locks: what a metrics endpoint
 * serves.
 */
public final class ServerStats {

  final LongAdder connected = new LongAdder();
  final LongAdder received = new LongAdder();
  final LongAdder sessions = new LongAdder();
  final LongAdder contributors = new LongAdder();
  final LongAdder roundNanos = new LongAdder();
  private final Map<Status, LongAdder> refused = new EnumMap<>(Status.class);
  private final Map<Exclusion, LongAdder> excluded = new EnumMap<>(Exclusion.class);
  private volatile int lastContributors;

  public ServerStats() {
    for (Status s : Status.values()) {
      refused.put(s, new LongAdder());
    }
    for (Exclusion e : Exclusion.values()) {
      excluded.put(e, new LongAdder());
    }
  }

  void refused(Status s) {
    refused.get(s).increment();
  }

  void session(int valid, Map<Exclusion, Integer> left) {
    sessions.increment();
    contributors.add(valid);
    lastContributors = valid;
    left.forEach((e, k) -> excluded.get(e).add(k));
  }

  /** Clients connected now. */
  public long connectedClients() {
    return connected.sum();
  }

  /** Submissions taken into a session's inbox so far. */
  public long receivedSubmissions() {
    return received.sum();
  }

  /**
   * Submissions (and, over SPDZ, requests for masks) refused on arrival, by the reason's name in
   * lower case (late, duplicate, ...).
   */
  public Map<String, Long> refusedByReason() {
    Map<String, Long> out = new java.util.TreeMap<>();
    refused.forEach(
        (s, a) -> {
          if (s != Status.RECEIVED) {
            out.put(s.name().toLowerCase(java.util.Locale.ROOT), a.sum());
          }
        });
    return out;
  }

  /** Submissions a session left out, by {@link Exclusion#label}. */
  public Map<String, Long> excludedByReason() {
    Map<String, Long> out = new java.util.TreeMap<>();
    excluded.forEach((e, a) -> out.put(e.label, a.sum()));
    return out;
  }

  public long sessionsRun() {
    return sessions.sum();
  }

  public long contributorsTotal() {
    return contributors.sum();
  }

  public int lastSessionContributors() {
    return lastContributors;
  }

  /** The wall time of the sessions' computations, summed, in nanoseconds. */
  public long computationNanos() {
    return roundNanos.sum();
  }
}
