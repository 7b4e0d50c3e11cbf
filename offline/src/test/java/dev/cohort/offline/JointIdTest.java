package dev.cohort.offline;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.api.AbortException;
import dev.cohort.net.InMemoryNetwork;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class JointIdTest {

  private static List<CompletableFuture<long[]>> run(InMemoryNetwork net, int cheater) {
    List<CompletableFuture<long[]>> ids = new ArrayList<>();
    for (int p = 0; p < net.parties(); p++) {
      var channel = net.channel(p);
      if (p == cheater) {
        ids.add(
            CompletableFuture.supplyAsync(
                () -> {
                  long[][] out = new long[net.parties()][];
                  int[] lengths = new int[net.parties()];
                  for (int q = 0; q < out.length; q++) {
                    out[q] = new long[] {1};
                    lengths[q] = q == cheater ? 0 : 1;
                  }
                  channel.exchange(out, lengths);
                  return null;
                }));
      } else {
        ids.add(CompletableFuture.supplyAsync(() -> JointId.agree(channel)));
      }
    }
    return ids;
  }

  @Test
  void agree_everyParty_sameIdFreshEachRun() {
    long[] first = null;
    for (int n : new int[] {2, 3, 5}) {
      List<CompletableFuture<long[]>> ids = run(new InMemoryNetwork(n, Duration.ofSeconds(10)), -1);
      long[] id = ids.get(0).join();
      assertEquals(2, id.length);
      for (CompletableFuture<long[]> f : ids) {
        assertArrayEquals(id, f.join(), "parties " + n);
      }
      if (first != null) {
        assertFalse(Arrays.equals(first, id), "two runs drew the same id");
      }
      first = id;
    }
  }

  @Test
  void agree_shortContribution_abortsNamingTheParty() {
    List<CompletableFuture<long[]>> ids = run(new InMemoryNetwork(3, Duration.ofSeconds(10)), 2);
    for (int p = 0; p < 2; p++) {
      CompletionException e = assertThrows(CompletionException.class, ids.get(p)::join);
      assertInstanceOf(AbortException.class, e.getCause());
      assertTrue(e.getCause().getMessage().contains("P2"), e.getCause().getMessage());
    }
  }
}
