package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cohort.field.Fields;
import dev.cohort.transport.tls.TlsIdentity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * A thousand input clients over TLS, each with its own certificate and connections, to three BGW
 * servers meshed over TLS: two sessions, each sum against the plaintext sum computed here.
 */
class TlsClientsTest {

  private static final Duration WAIT = Duration.ofSeconds(120);

  @Test
  void thousandTlsClients_twoSessions_sumsMatchThePlaintext() {
    int n = 1000;
    SplittableRandom random = new SplittableRandom(11);
    long[][] values = new long[n][];
    long[] sums = new long[2];
    for (int j = 0; j < n; j++) {
      values[j] = new long[] {random.nextLong(-8, 8), random.nextLong(-1000, 1000)};
      sums[0] += values[j][0];
      sums[1] += values[j][1];
    }
    ExecutorService pool = Executors.newFixedThreadPool(16);
    try (LocalDeployment d =
        LocalDeployment.start(
            LocalDeployment.Settings.of(3, Fields.MERSENNE_61, new Shape(4, 11), n)
                .closeAfter(n)
                .deadline(WAIT))) {
      List<TlsIdentity> ids = new ArrayList<>();
      for (int j = 0; j < n; j++) {
        ids.add(d.clientIdentity(j));
      }
      var first = d.session(new Sums());
      try (ClientCrowd crowd = ClientCrowd.connectAndSubmit(d, ids, values, pool, WAIT)) {
        for (SessionOutcome<long[]> o : first.join()) {
          assertEquals(n, o.contributors());
          assertArrayEquals(new long[] {sums[0], sums[1], sums[0], sums[1]}, o.value());
        }
        var second = d.session(new Sums());
        crowd.submitAll(values, pool);
        for (SessionOutcome<long[]> o : second.join()) {
          assertEquals(2, o.session());
          assertEquals(2L * n, o.totalContributors());
          assertArrayEquals(new long[] {sums[0], sums[1], 2 * sums[0], 2 * sums[1]}, o.value());
        }
      }
      long until = System.nanoTime() + WAIT.toNanos(); // the servers hear of the closes later
      while (d.server(0).stats().connectedClients() > 0 && System.nanoTime() < until) {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
      }
      assertEquals(0, d.server(0).stats().connectedClients(), "clients connected after closing");
    } finally {
      pool.shutdownNow();
    }
  }
}
