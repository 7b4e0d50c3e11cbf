package dev.cohort.engine;

import dev.cohort.api.PartyId;
import java.util.Map;

/**
 * What one run cost one party: rounds, gates by kind, traffic per peer and wall time.
 *
 * @param rounds exchanges of the computation itself, including its checks
 * @param setupRounds exchanges of the suite's one-off set-up (zero after the first run)
 * @param gates interactive gates evaluated, by kind
 * @param elements secret elements those gates covered, by kind
 * @param batches suite protocol runs the gates were grouped into, by kind
 * @param localGates local (linear) gates evaluated
 * @param bytesSent bytes sent to each peer (index = peer)
 * @param framesSent frames sent to each peer
 * @param wallNanos wall-clock time of the run
 * @param materialWaitNanos part of that time spent waiting for preprocessed material that was not
 *     ready yet (SPDZ with an offline phase in the background that did not keep up); zero when the
 *     material was always at hand
 */
public record RunMetrics(
    int party,
    long rounds,
    long setupRounds,
    Map<String, Long> gates,
    Map<String, Long> elements,
    Map<String, Long> batches,
    long localGates,
    long[] bytesSent,
    long[] framesSent,
    long wallNanos,
    long materialWaitNanos) {

  public long totalBytesSent() {
    long t = 0;
    for (long b : bytesSent) {
      t += b;
    }
    return t;
  }

  public long totalFramesSent() {
    long t = 0;
    for (long f : framesSent) {
      t += f;
    }
    return t;
  }

  /** A few lines for people: what a measurement report would list. */
  public String report() {
    StringBuilder sb = new StringBuilder();
    sb.append(PartyId.of(party))
        .append(String.format(": %.3f ms, %d rounds", wallNanos / 1e6, rounds));
    if (setupRounds > 0) {
      sb.append(" (+").append(setupRounds).append(" set-up)");
    }
    sb.append(", gates ").append(gates).append(", elements ").append(elements);
    sb.append(", local gates ").append(localGates);
    if (materialWaitNanos > 0) {
      sb.append(String.format(", waited %.3f ms for material", materialWaitNanos / 1e6));
    }
    sb.append('\n');
    for (int p = 0; p < bytesSent.length; p++) {
      if (p != party) {
        sb.append("  to ")
            .append(PartyId.of(p))
            .append(": ")
            .append(bytesSent[p])
            .append(" bytes in ")
            .append(framesSent[p])
            .append(" frames\n");
      }
    }
    return sb.toString();
  }
}
