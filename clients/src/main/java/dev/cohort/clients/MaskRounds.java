package dev.cohort.clients;

import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import dev.cohort.spdz.MaterialException;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.spdz.SpdzSuite;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open phase of an SPDZ session at one server: rounds among the servers that grant input masks
 * to the clients that asked every server for them, until the session closes.
 *
 * <p>Every server must hand a client the shares of the <em>same</em> triples, but requests reach
 * the servers in different orders. So the servers grant together: in each round every server sends
 * the ids of the requests it holds and not yet granted (ascending) and whether it closes; the round
 * grants, in ascending id order, the requests that every server announced, each the next {@code m}
 * triples of the preprocessing ({@link SpdzSuite#triplesForClients}), and the session closes after
 * the first round in which some server closes. A request some server has not received yet stays for
 * a later round. A server starts a round as soon as it holds a request it has announced fewer than
 * twice, or closes, and {@value #RETRY_MILLIS} ms after the last round while it holds any request
 * ({@link SessionInbox#awaitMaskRound}): grants take one or two rounds after a request reached the
 * last server (a few milliseconds more when it reached that server only after two rounds), and
 * requests that reach only some servers cost a round per {@value #RETRY_MILLIS} ms at most, never a
 * busy loop.
 *
 * <pre>
 * frame (every peer): session | closing (0 or 1) | count | ids (count, ascending)
 * </pre>
 *
 * <p>Triples are drawn in blocks, and each client takes the next m of the current block: a draw
 * from dealer files records its use on disk (two syncs, some milliseconds), so a draw per grant
 * round would cost more than the rest of the round. The first block holds {@value #BLOCK} triples
 * (at least m), each next one twice as many up to {@value #MAX_BLOCK}: a server that serves many
 * clients soon draws rarely, one that serves few holds little. What is left of a block serves the
 * next rounds and sessions: it was never opened to anyone. The servers draw and take in the same
 * order, so the k-th client of a session gets the same triples at every server; a restart loses
 * what is left of the block, which the use record already counts as used, so it is skipped, never
 * handed out again.
 *
 * <p>No triple is opened to two clients: each server hands each position of its stream to one
 * client at most, whatever the others announce. A corrupt server that announces different ids to
 * different servers leaves the honest ones on different grants: clients then get shares of
 * different triples and fail their check, and the digest of the grants ({@link #grantsDigest}),
 * compared when the session closes, aborts the session before anything is opened.
 */
final class MaskRounds {

  private static final Logger log = LoggerFactory.getLogger(MaskRounds.class);

  /** How long a server that holds only requests announced twice waits to start a round. */
  static final int RETRY_MILLIS = 10;

  /** The triples of the first block drawn from the preprocessing (or m, when larger). */
  static final int BLOCK = 4096;

  /** The most triples drawn at a time (6 columns: 6 MiB over 2^127 − 1). */
  static final int MAX_BLOCK = 1 << 16;

  private final ServerRounds rounds;
  private final SpdzSuite suite;
  private final Field field;
  private final int m;
  private final int me;
  private final Map<Integer, Grant> granted = new HashMap<>();
  private MessageDigest grants;
  private Triples block; // the triples drawn last, from position used on
  private int used;
  private int nextBlock = BLOCK;

  /** A client's triples: m of them in {@code block}, from element {@code offset}. */
  record Grant(Triples block, int offset) {}

  MaskRounds(ServerRounds rounds, SpdzSuite suite, Shape shape, int me) {
    this.rounds = rounds;
    this.suite = suite;
    this.field = suite.field();
    this.m = shape.elements();
    this.me = me;
  }

  /**
   * Runs the mask rounds of {@code inbox}'s session until it closes ({@code count} submissions here
   * or {@code deadlineNanos}), tells the clients whose requests were never granted, and returns the
   * ids of the submissions received, ascending.
   */
  int[] collect(SessionInbox inbox, int count, long deadlineNanos, Supplier<ClientPort> port)
      throws InterruptedException {
    long session = inbox.session;
    granted.clear();
    grants = Digests.sha256();
    Digests.update(grants, session);
    int roundsRun = 0;
    int grantedCount = 0;
    while (true) {
      roundsRun++;
      SessionInbox.MaskRound due =
          inbox.awaitMaskRound(count, deadlineNanos, RETRY_MILLIS * 1_000_000L);
      int[] ids = due.requests();
      long[] frame = new long[3 + ids.length];
      frame[0] = session;
      frame[1] = due.closing() ? 1 : 0;
      frame[2] = ids.length;
      for (int k = 0; k < ids.length; k++) {
        frame[3 + k] = ids[k];
      }
      long[][] all = rounds.all(frame);
      boolean closing = false;
      int[] common = ids;
      for (int p = 0; p < all.length; p++) {
        long[] f = all[p];
        if (f.length < 3 || f[0] != session || f[2] != f.length - 3L || !ascending(f, 3)) {
          throw new IllegalStateException(
              "server "
                  + p
                  + " sent a malformed mask round in session "
                  + session
                  + " (or is at another session); the servers are out of step");
        }
        closing |= f[1] != 0;
        if (p != me) {
          common = ServerRounds.intersect(common, f, 3);
        }
      }
      if (closing) {
        break;
      }
      if (common.length > 0) {
        grant(inbox, common, port.get());
        grantedCount += common.length;
      }
    }
    log.debug("{} mask rounds granted masks to {} clients", roundsRun, grantedCount);
    int[] received = inbox.close();
    ClientPort p = port.get();
    if (p != null) {
      byte[] late =
          Messages.ack(session, Status.LATE, "the session closed before masks were granted");
      for (int id : inbox.ungranted()) {
        p.send(id, late);
      }
    }
    return received;
  }

  /** This server's triples of {@code client}, granted this session (null if none). */
  Grant triples(int client) {
    return granted.get(client);
  }

  /** A digest of this session's grants: ids and order, hence the triples each client got. */
  byte[] grantsDigest() {
    return grants.digest();
  }

  private void grant(SessionInbox inbox, int[] ids, ClientPort port) { // port: null drops
    Grant[] grants = new Grant[ids.length];
    for (int k = 0; k < ids.length; k++) {
      grants[k] = take();
    }
    inbox.grant(ids); // before the masks leave: a quick client's submission must find the grant
    Digests.update(this.grants, ids.length);
    for (int k = 0; k < ids.length; k++) {
      Digests.update(this.grants, ids[k]);
      granted.put(ids[k], grants[k]);
      if (port != null) {
        Triples t = grants[k].block();
        int at = grants[k].offset();
        port.send(
            ids[k],
            Messages.masks(
                inbox.session, m, field.words(), t.a().share, t.b().share, t.c().share, at));
      }
    }
  }

  /** The next m triples of the current block, drawing a new block when it has fewer left. */
  private Grant take() {
    if (block == null || block.a().length - used < m) {
      int count = Math.max(nextBlock, m);
      try {
        block = suite.triplesForClients(count);
        nextBlock = Math.min(2 * nextBlock, MAX_BLOCK);
      } catch (MaterialException e) {
        if (count == m) {
          throw e;
        }
        block = suite.triplesForClients(m); // the last ones: every server falls back alike
      }
      used = 0;
    }
    Grant g = new Grant(block, used);
    used += m;
    return g;
  }

  private static boolean ascending(long[] f, int from) {
    for (int i = from; i < f.length; i++) {
      if (f[i] < 0 || f[i] > Integer.MAX_VALUE || i > from && f[i] <= f[i - 1]) {
        return false;
      }
    }
    return true;
  }
}
