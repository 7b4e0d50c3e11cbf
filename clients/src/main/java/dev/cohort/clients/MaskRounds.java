package dev.cohort.clients;

import dev.cohort.clients.Messages.Status;
import dev.cohort.field.Field;
import dev.cohort.spdz.SpdzPreprocessing.Triples;
import dev.cohort.spdz.SpdzSuite;
import dev.cohort.suite.Shares;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

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
 * twice, or closes ({@link SessionInbox#awaitMaskRound}): grants take one or two rounds after a
 * request reached the last server, and requests that reach only some servers cost a bounded number
 * of rounds, never a busy loop.
 *
 * <pre>
 * frame (every peer): session | closing (0 or 1) | count | ids (count, ascending)
 * </pre>
 *
 * <p>No triple is opened to two clients: each server hands each position of its stream to one
 * client at most, whatever the others announce. A corrupt server that announces different ids to
 * different servers leaves the honest ones on different grants: clients then get shares of
 * different triples and fail their check, and the digest of the grants ({@link #grantsDigest}),
 * compared when the session closes, aborts the session before anything is opened.
 */
final class MaskRounds {

  private final ServerRounds rounds;
  private final SpdzSuite suite;
  private final Field field;
  private final int m;
  private final int me;
  private final Map<Integer, long[]> granted = new HashMap<>();
  private MessageDigest grants;

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
    while (true) {
      SessionInbox.MaskRound due = inbox.awaitMaskRound(count, deadlineNanos);
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
      }
    }
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
  long[] triples(int client) {
    return granted.get(client);
  }

  /** A digest of this session's grants: ids and order, hence the triples each client got. */
  byte[] grantsDigest() {
    return grants.digest();
  }

  private void grant(SessionInbox inbox, int[] ids, ClientPort port) { // port: null drops
    Triples t = suite.triplesForClients(Math.multiplyExact(ids.length, m));
    inbox.grant(ids); // before the masks leave: a quick client's submission must find the grant
    Digests.update(grants, ids.length);
    int w = field.words();
    for (int k = 0; k < ids.length; k++) {
      Digests.update(grants, ids[k]);
      long[] mine = new long[SpdzValidation.TRIPLE_COLUMNS * m * w];
      copy(t.a(), k, mine, SpdzValidation.A_SHARE, SpdzValidation.A_MAC);
      copy(t.b(), k, mine, SpdzValidation.B_SHARE, SpdzValidation.B_MAC);
      copy(t.c(), k, mine, SpdzValidation.C_SHARE, SpdzValidation.C_MAC);
      granted.put(ids[k], mine);
      if (port != null) {
        long[] open = new long[3 * m * w];
        System.arraycopy(mine, SpdzValidation.A_SHARE * m * w, open, 0, m * w);
        System.arraycopy(mine, SpdzValidation.B_SHARE * m * w, open, m * w, m * w);
        System.arraycopy(mine, SpdzValidation.C_SHARE * m * w, open, 2 * m * w, m * w);
        port.send(ids[k], Messages.masks(inbox.session, m, open));
      }
    }
  }

  /** Client {@code k}'s m elements of {@code s} into columns {@code share} and {@code mac}. */
  private void copy(Shares s, int k, long[] out, int share, int mac) {
    int n = m * field.words();
    System.arraycopy(s.share, k * n, out, share * n, n);
    System.arraycopy(s.mac, k * n, out, mac * n, n);
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
