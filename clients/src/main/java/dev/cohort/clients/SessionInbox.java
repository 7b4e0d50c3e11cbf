package dev.cohort.clients;

import dev.cohort.clients.Messages.Status;
import dev.cohort.clients.Messages.Submit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The submissions one server received for one session, from transport threads, until the session
 * closes. It holds only this session's submissions: memory grows with submissions in flight, not
 * with clients ever seen.
 */
final class SessionInbox {

  final long session;
  private final Shape shape;
  private final int words;
  private final Canonical canonical;
  private final Map<Integer, long[]> received = new HashMap<>();
  private boolean closed;

  SessionInbox(long session, Shape shape, int words, Canonical canonical) {
    this.session = session;
    this.shape = shape;
    this.words = words;
    this.canonical = canonical;
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
      if (received.putIfAbsent(client, s.words()) != null) {
        return Status.DUPLICATE;
      }
      notifyAll();
      return Status.RECEIVED;
    }
  }

  /**
   * Waits until {@code count} submissions arrived or {@code deadlineNanos} (of {@link
   * System#nanoTime}) passed, then closes: later submissions are refused as late. Returns the ids
   * received, ascending.
   */
  synchronized int[] closeAfter(int count, long deadlineNanos) throws InterruptedException {
    long left;
    while (received.size() < count && (left = deadlineNanos - System.nanoTime()) > 0) {
      long millis = left / 1_000_000;
      wait(millis, (int) (left % 1_000_000));
    }
    closed = true;
    int[] ids = new int[received.size()];
    int k = 0;
    for (int id : received.keySet()) {
      ids[k++] = id;
    }
    Arrays.sort(ids);
    return ids;
  }

  /** The words {@code client} submitted (after {@link #closeAfter}). */
  synchronized long[] words(int client) {
    return received.get(client);
  }

  synchronized int size() {
    return received.size();
  }
}
