package dev.cohort.cli;

import dev.cohort.clients.ClientCrowd;
import dev.cohort.clients.LocalDeployment;
import dev.cohort.clients.SessionOutcome;
import dev.cohort.clients.Shape;
import dev.cohort.clients.Sums;
import dev.cohort.field.Field;
import dev.cohort.transport.tls.TlsIdentity;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code cohort demo distance-average --clients N}: the distance average with the devices as input
 * clients instead of MPC parties. Three BGW servers run in this JVM, meshed over TLS on loopback;
 * each of the N devices has its own client certificate and TLS connections to every server and, in
 * every session, secret-shares the metres it moved (from the traces) and is done. Each session's
 * average is checked against the plaintext average of the traces.
 */
final class DemoClients {

  private static final Duration WAIT = Duration.ofSeconds(120);

  private final int devices;
  private final int sessions;
  private final Field field;
  private final Traces traces;

  DemoClients(int devices, int sessions, Field field, Traces traces) {
    this.devices = devices;
    this.sessions = sessions;
    this.field = field;
    this.traces = traces;
  }

  /** Runs the demo; 0 when every session's average matched the plaintext one. */
  int run(PrintWriter out) {
    out.printf(
        Locale.ROOT,
        "distance average of %d devices as input clients, %d sessions: 3 BGW servers (%s) in"
            + " this JVM over TLS 1.3 on loopback; each device has its own certificate and"
            + " connections%n",
        devices,
        sessions,
        field.name());
    out.flush();
    ExecutorService pool = Executors.newFixedThreadPool(32);
    boolean match = true;
    List<Double> further = new ArrayList<>();
    try (LocalDeployment d =
        LocalDeployment.start(
            LocalDeployment.Settings.of(
                    3, field, Shape.of(DistanceAverageParty.DISTANCE_BITS), devices)
                .closeAfter(devices)
                .deadline(WAIT))) {
      List<TlsIdentity> ids = new ArrayList<>();
      for (int j = 0; j < devices; j++) {
        ids.add(d.clientIdentity(j));
      }
      ClientCrowd crowd = null;
      try {
        for (int s = 1; s <= sessions; s++) {
          long[][] values = new long[devices][];
          long expected = 0;
          for (int j = 0; j < devices; j++) {
            values[j] = new long[] {traces.distance(j, s)};
            expected += values[j][0];
          }
          long t0 = System.nanoTime();
          var session = d.session(new Sums());
          if (crowd == null) {
            crowd = ClientCrowd.connectAndSubmit(d, ids, values, pool, WAIT);
          } else {
            crowd.submitAll(values, pool);
          }
          List<SessionOutcome<long[]>> outcomes = session.join();
          double ms = (System.nanoTime() - t0) / 1e6;
          SessionOutcome<long[]> o = outcomes.get(0);
          boolean ok = o.contributors() == devices && o.value()[0] == expected;
          for (SessionOutcome<long[]> other : outcomes) {
            ok &= Arrays.equals(other.value(), o.value());
          }
          match &= ok;
          if (s > 1) {
            further.add(ms);
          }
          out.printf(
              Locale.ROOT,
              "session %d: %d contributors, average %.1f m (plaintext %.1f m) %s, %.1f ms%s%n",
              o.session(),
              o.contributors(),
              (double) o.value()[0] / o.contributors(),
              (double) expected / devices,
              ok ? "matches" : "DIFFERS",
              ms,
              s == 1 ? " (with " + 3 * devices + " TLS handshakes)" : "");
          out.flush();
        }
      } finally {
        if (crowd != null) {
          crowd.close();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (!further.isEmpty()) {
      double[] f = further.stream().mapToDouble(Double::doubleValue).toArray();
      out.printf(Locale.ROOT, "median of the further sessions: %.1f ms%n", BenchClients.median(f));
    }
    out.println(match ? "every session matches the plaintext average" : "MISMATCH");
    out.flush();
    return match ? 0 : 1;
  }
}
