package dev.cohort.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cohort.field.Fields;
import dev.cohort.net.Channel;
import dev.cohort.net.TrafficStats;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A corrupt server tells the other servers different things when a session closes: it announces a
 * wrong digest of one submission to server 0 only, so that server 0 would leave that client out and
 * server 1 would not. The closing round that compares the servers' decisions aborts the session at
 * the honest servers, and the engine opens nothing of it.
 */
class SpdzSplitServerTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int CORRUPT = 2;

  @Test
  void differentDigestsToDifferentServers_abortTheSessionBeforeAnyOpening() {
    Shape shape = new Shape(8);
    int clients = 12;
    AtomicBoolean split = new AtomicBoolean();
    AtomicInteger framesAfterSplit = new AtomicInteger();
    Servers.Channels corrupt =
        (server, channel) ->
            server != CORRUPT ? channel : new SplittingChannel(channel, split, framesAfterSplit);
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                Servers.run(
                    Servers.Suite.spdz(Fields.MERSENNE_61).withChannels(corrupt),
                    3,
                    shape,
                    1,
                    (p, b) -> b.closeAfter(clients).deadline(WAIT),
                    mem -> {
                      Servers.each(
                          clients,
                          4,
                          c -> {
                            try (Client client = Client.over(mem.connect(c), WAIT)) {
                              assertTrue(client.submit(c - 6).received());
                            }
                          });
                      return null;
                    }));
    assertTrue(split.get(), "the corrupt server never saw the closing round");
    Throwable cause = e;
    while (cause != null && !String.valueOf(cause.getMessage()).contains("other than this")) {
      cause = cause.getCause();
    }
    assertTrue(cause != null, e.toString());
    assertTrue(cause.getMessage().contains("aborted before anything is opened"));
    // the round that compares decisions is the last one the corrupt server took part in
    assertEquals(1, framesAfterSplit.get());
  }

  /**
   * The corrupt server's channel: in the first closing round (the frame of ids and digests) it
   * changes the digest of the first submission in the frame for server 0 only.
   */
  private static final class SplittingChannel implements Channel {
    private final Channel channel;
    private final AtomicBoolean split;
    private final AtomicInteger after;

    SplittingChannel(Channel channel, AtomicBoolean split, AtomicInteger after) {
      this.channel = channel;
      this.split = split;
      this.after = after;
    }

    @Override
    public int myId() {
      return channel.myId();
    }

    @Override
    public int parties() {
      return channel.parties();
    }

    @Override
    public long[][] exchange(long[][] outgoing, int[] lengths, boolean[] receive) {
      if (split.get()) {
        after.incrementAndGet();
      } else if (closingFrame(outgoing[0], lengths[0])) {
        long[] forServer0 = outgoing[0].clone();
        forServer0[7] ^= 1; // the first word of the first submission's digest
        long[][] out = outgoing.clone();
        out[0] = forServer0;
        split.set(true);
        return channel.exchange(out, lengths, receive);
      }
      return channel.exchange(outgoing, lengths, receive);
    }

    /** session 1 | commitment (4 random words) | count | (id, digest) × count, count > 0. */
    private static boolean closingFrame(long[] f, int length) {
      return length > 6
          && f[0] == 1
          && (f[1] < 0 || f[1] > 1)
          && f[5] > 0
          && f[5] * 5 == length - 6L;
    }

    @Override
    public TrafficStats stats() {
      return channel.stats();
    }

    @Override
    public void abort(String reason) {
      channel.abort(reason);
    }

    @Override
    public void close() {
      channel.close();
    }
  }
}
