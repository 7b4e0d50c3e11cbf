package dev.cohort.clients;

import dev.cohort.clients.Messages.Status;
import dev.cohort.clients.Messages.Submit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The submissions one server received for one session, from transport threads, until the session
 * closes. It holds only this session's submissions: memory grows with submissions in flight, not
 * with clients ever seen.
 *
 * <p>Over SPDZ a client first asks for input masks: the inbox keeps the requests until the servers
 * grant them together ({@link MaskRounds}), and takes a submission only from a client whose masks
 * were granted.
 */
final class SessionInbox {

  final long session;
  private final Shape shape;
  private final int words;
  private final Canonical canonical;
  private final Map<Integer, long[]> received = new HashMap<>();
  private final boolean masked; // SPDZ: submissions only from clients whose masks were granted
  private final Map<Integer, Integer> requested = new HashMap<>(); // not granted yet: announced
  private final Set<Integer> granted = new HashSet<>();
  private long lastRound = System.nanoTime();
  private boolean closed;
  // The number of submissions the session thread waits for: a submission wakes it only once they
  // are all in, not once per submission (a wake-up and a context switch each).
  private int wakeAt = Integer.MAX_VALUE;

  SessionInbox(long session, Shape shape, int words, Canonical canonical) {
    this(session, shape, words, canonical, false);
  }

  SessionInbox(long session, Shape shape, int words, Canonical canonical, boolean masked) {
    this.session = session;
    this.shape = shape;
    this.words = words;
    this.canonical = canonical;
    this.masked = masked;
  }

  /** Takes {@code s} from {@code client} unless the session closed or the form is wrong. */
  Status offer(int client, Submit s) {
    if (!Arrays.equals(s.bits(), shape.bits())
        || s.words().length != words
        || !canonical.all(s.words())) {
      return Status.MALFORMED;
    }
    synchronized (this) {
      if (closed) {
        return Status.LATE;
      }
      if (masked && !granted.contains(client)) {
        return Status.NO_MASKS;
      }
      if (received.putIfAbsent(client, s.words()) != null) {
        return Status.DUPLICATE;
      }
      if (received.size() >= wakeAt) {
        notifyAll();
      }
      return Status.RECEIVED;
    }
  }

  /**
   * Waits until {@code count} submissions arrived or {@code deadlineNanos} (of {@link
   * System#nanoTime}) passed, then closes: later submissions are refused as late. Returns the ids
   * received, ascending.
   */
  synchronized int[] closeAfter(int count, long deadlineNanos) throws InterruptedException {
    wakeAt = count;
    long left;
    while (received.size() < count && (left = deadlineNanos - System.nanoTime()) > 0) {
      long millis = left / 1_000_000;
      wait(millis, (int) (left % 1_000_000));
    }
    return close();
  }

  /** Closes now: later submissions are refused as late. Returns the ids received, ascending. */
  synchronized int[] close() {
    closed = true;
    return sorted(received.keySet());
  }

  private static int[] sorted(Set<Integer> set) {
    int[] ids = new int[set.size()];
    int k = 0;
    for (int id : set) {
      ids[k++] = id;
    }
    Arrays.sort(ids);
    return ids;
  }

  // ---- input masks (SPDZ) ----

  /** What a server announces in a mask round: the requests it holds, and whether it closes. */
  record MaskRound(int[] requests, boolean closing) {}

  /** Takes {@code client}'s request for masks unless the session closed or it asked already. */
  synchronized Status requestMasks(int client) {
    if (closed) {
      return Status.LATE;
    }
    if (granted.contains(client) || requested.putIfAbsent(client, 0) != null) {
      return Status.DUPLICATE;
    }
    notifyAll();
    return Status.RECEIVED;
  }

  /**
   * Waits until a mask round is due and returns what to announce in it: every request not granted
   * yet, ascending. A round is due at once while some request was announced fewer than twice (a new
   * one, or one that some server had not received yet last round: it gets one more round at once);
   * once {@code count} submissions arrived or {@code deadlineNanos} passed (then closing); and,
   * while any request waits, {@code retryNanos} after the last round. The last is what lets a
   * request that some server received late be granted: that server starts a round for it, and the
   * others, which announced it twice already, join within {@code retryNanos}. Requests that never
   * reach every server (a client that asked only some) cost a round per {@code retryNanos} at most,
   * never a busy loop; a server that holds no request at all joins only for a new one or to close,
   * and it is the one every grant waits for anyway.
   */
  synchronized MaskRound awaitMaskRound(int count, long deadlineNanos, long retryNanos)
      throws InterruptedException {
    wakeAt = count;
    while (true) {
      long now = System.nanoTime();
      if (received.size() >= count || hasFreshRequest() || now - deadlineNanos >= 0) {
        break;
      }
      long wake = deadlineNanos;
      if (!requested.isEmpty()) {
        long retry = lastRound + retryNanos;
        if (now - retry >= 0) {
          break;
        }
        wake = retry - deadlineNanos < 0 ? retry : deadlineNanos;
      }
      long left = wake - now;
      wait(left / 1_000_000, (int) (left % 1_000_000));
    }
    boolean closing = received.size() >= count || deadlineNanos - System.nanoTime() <= 0;
    int[] ids = sorted(requested.keySet());
    for (int id : ids) {
      requested.merge(id, 1, Integer::sum);
    }
    lastRound = System.nanoTime();
    return new MaskRound(ids, closing);
  }

  private boolean hasFreshRequest() {
    for (int announced : requested.values()) {
      if (announced < 2) {
        return true;
      }
    }
    return false;
  }

  /** Marks the masks of {@code ids} granted: their submissions are taken from now on. */
  synchronized void grant(int[] ids) {
    for (int id : ids) {
      requested.remove(id);
      granted.add(id);
    }
  }

  /** The requests never granted, ascending (after {@link #close}). */
  synchronized int[] ungranted() {
    return sorted(requested.keySet());
  }

  /** The words {@code client} submitted (after {@link #closeAfter}). */
  synchronized long[] words(int client) {
    return received.get(client);
  }

  synchronized int size() {
    return received.size();
  }
}
