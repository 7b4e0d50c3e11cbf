package dev.cohort.clients;

import java.util.Map;

/**
 * What the servers agreed on when a session closed, at one server: the candidates (the submissions
 * every server received, ascending), the verdict on each, and the valid ones' values as this
 * server's shares.
 *
 * @param candidates client ids, ascending
 * @param verdicts per candidate: null when it counts, else why it was left out
 * @param inputs the counted submissions' values, in candidate order
 * @param excluded every submission this server received and the session left out, by reason
 */
record SessionCheck(
    int[] candidates, Exclusion[] verdicts, Columns inputs, Map<Exclusion, Integer> excluded) {

  /** How many submissions count. */
  int valid() {
    return inputs.contributors();
  }

  /** Adds {@code k} to the count of {@code reason} in {@code excluded}. */
  static void count(Map<Exclusion, Integer> excluded, Exclusion reason, int k) {
    if (k > 0) {
      excluded.merge(reason, k, Integer::sum);
    }
  }
}
