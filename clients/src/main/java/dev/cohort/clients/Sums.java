package dev.cohort.clients;

import dev.cohort.api.ClientInputs;
import dev.cohort.api.Computation;
import dev.cohort.api.Secret;
import java.util.ArrayList;
import java.util.List;

/**
 * The computation of the statistics service: it opens, per column, the sum of the session's values
 * and the running sum over all sessions so far. Its result holds the session sums in elements
 * {@code [0, columns)} and the running sums in {@code [columns, 2 columns)}. Opened sums are signed
 * and must stay below half the field (2^60 in 2^61 − 1): at most 2^28 sessions of 2^32 contributors
 * of 32-bit values.
 */
public final class Sums implements SessionComputation<long[]> {

  @Override
  public Computation<long[]> of(ClientInputs inputs, ClientInputs totals) {
    return n -> {
      List<Secret> out = new ArrayList<>();
      for (int c = 0; c < inputs.columns(); c++) {
        out.add(inputs.contributors() == 0 ? n.known(0) : n.sum(n.clientInputs(inputs, c)));
      }
      for (int c = 0; c < totals.columns(); c++) {
        out.add(n.get(n.clientInputs(totals, c), 0));
      }
      return n.open(n.vector(out));
    };
  }
}
